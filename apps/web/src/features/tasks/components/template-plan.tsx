import type { Severity, TaskItem, TaskLibraryEntry, TaskTemplate } from '@vigie/contract';
import { TASK_KIND_LABELS, TASK_LIBRARY } from '@vigie/contract/values';
import { endpoints } from '@vigie/contract/routes';
import { BookOpen, Lock, Pencil, Plus } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { useAuth } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { useTaskTemplates } from '../api/template-queries';
import { limitsText } from '../task-format';
import { coverageText, itemCountText, scheduleText, timingText } from '../template-format';
import { TemplateEditor, type Named } from './template-editor';
import { ITEM_TYPE_LABELS } from './template-items';
import { LOAD_ERROR } from '@/lib/fallback-text';

const NNBSP = '\u202F';
const quoted = (text: string) => `«${NNBSP}${text}${NNBSP}»`;

const pill = 'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold';
const SEVERITY_PILLS: Record<Severity, string> = {
  critical: 'border-red-400/40 bg-red-500/10 text-red-100',
  warning: 'border-amber-300/40 bg-amber-400/10 text-amber-100',
};

/** What an item asks, in a few words: « de 0 à 4 °C », « oui attendu », « Aucune, Rongeurs (non conforme) ». */
function itemDetail(item: TaskItem): string {
  const parts: string[] = [];
  switch (item.type) {
    case 'number':
      parts.push(limitsText(item) ?? (item.unit ? `nombre en ${item.unit}` : 'nombre'));
      break;
    case 'boolean':
      parts.push(item.expected === undefined ? 'oui ou non' : item.expected ? 'oui attendu' : 'non attendu');
      break;
    case 'choice':
      parts.push(
        (item.options ?? []).map((option) => ((item.failing ?? []).includes(option) ? `${option} (non conforme)` : option)).join(', '),
      );
      break;
    default:
      parts.push(ITEM_TYPE_LABELS[item.type].toLowerCase());
  }
  if (!item.required) parts.push('facultatif');
  return parts.join(' · ');
}

function TemplateRow({
  template,
  sites,
  regions,
  severityLabels,
  editable,
  lockedForMe,
  editing,
  editId,
  onEdit,
}: {
  template: TaskTemplate;
  sites: readonly Named[];
  regions: readonly Named[];
  severityLabels: Record<Severity, string>;
  /** The person may change it, and no editor is open. */
  editable: boolean;
  /** Locked, and the person is not the admin of the whole organization who may change it. */
  lockedForMe: boolean;
  /** It is the one open in the editor. */
  editing: boolean;
  editId: string;
  onEdit: () => void;
}) {
  const headingId = useId();
  return (
    <li className="space-y-2 rounded-xl border border-white/10 p-3 sm:p-4" aria-labelledby={headingId} data-testid="task-template">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1 space-y-1">
          <h3 id={headingId} className="font-semibold [overflow-wrap:anywhere] text-white">
            {template.name}
          </h3>
          <p className="flex flex-wrap items-center gap-2">
            <span className={`${pill} border-cyan-300/30 bg-cyan-400/10 text-cyan-100`}>{TASK_KIND_LABELS[template.kind]}</span>
            <span className={`${pill} ${SEVERITY_PILLS[template.severity]}`}>{severityLabels[template.severity]}</span>
            {template.locked && (
              <span className={`${pill} border-white/20 bg-white/5 text-slate-200`}>
                <Lock className="size-3" aria-hidden="true" />
                Verrouillé
              </span>
            )}
          </p>
        </div>
        {editable && (
          <Button
            id={editId}
            size="sm"
            onClick={onEdit}
            aria-label={`Modifier le modèle ${quoted(template.name)}`}
            icon={<Pencil className="size-4" aria-hidden="true" />}
          >
            Modifier
          </Button>
        )}
      </div>
      <p className="text-sm text-slate-200" data-testid="template-schedule">
        {scheduleText(template.schedule)}
      </p>
      <p className="text-sm text-slate-300">{timingText(template.schedule)}</p>
      <p className="text-sm [overflow-wrap:anywhere] text-slate-300">{coverageText(template, sites, regions)}</p>
      <details className="text-sm text-slate-300">
        <summary className="cursor-pointer font-medium text-slate-200">{itemCountText(template.items.length)}</summary>
        <ol className="mt-2 list-decimal space-y-1 pl-6">
          {template.items.map((item) => (
            <li key={item.id} className="[overflow-wrap:anywhere]">
              <span className="text-slate-100">{item.label}</span> — {itemDetail(item)}
            </li>
          ))}
        </ol>
      </details>
      {editing && <p className="text-sm font-medium text-cyan-200">En cours de modification ci-dessus.</p>}
      {lockedForMe && (
        <p className="text-xs text-slate-400">
          Le modèle de l’enseigne{NNBSP}: seul un administrateur qui voit toute l’organisation le modifie.
        </p>
      )}
    </li>
  );
}

/** « Partir d’un modèle »: the starter library, each entry opened in the editor to adapt before it is saved. */
function LibraryPanel({ id, onPick }: { id: string; onPick: (entry: TaskLibraryEntry) => void }) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="rounded-2xl border border-white/10 bg-slate-900/60 p-4 shadow-lg shadow-black/20 backdrop-blur sm:p-6"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Bibliothèque de départ
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        Les contrôles d’un magasin alimentaire, prêts à adapter{NNBSP}: choisissez-en un, modifiez ce qu’il faut, puis enregistrez-le.
      </p>
      <ul className="mt-4 grid gap-3 md:grid-cols-2">
        {TASK_LIBRARY.map((entry) => (
          <li key={entry.id} className="flex flex-col gap-2 rounded-xl border border-white/10 p-3" data-testid="library-entry">
            <h3 className="font-semibold text-white">{entry.request.name}</h3>
            <p className="text-xs text-slate-400">
              {TASK_KIND_LABELS[entry.request.kind]} · {scheduleText(entry.request.schedule)} · {itemCountText(entry.request.items.length)}
            </p>
            <p className="flex-1 text-sm text-slate-300">{entry.description}</p>
            <Button
              size="sm"
              variant="secondary"
              className="self-start"
              onClick={() => onPick(entry)}
              aria-label={`Partir du modèle ${quoted(entry.request.name)}`}
            >
              Partir de ce modèle
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

type EditorState = { kind: 'closed' } | { kind: 'new'; start?: TaskLibraryEntry } | { kind: 'edit'; template: TaskTemplate };

/**
 * « Plan de maîtrise sanitaire »: the templates of the plan that cover the sites one sees, with when
 * they fall due and where; « Nouveau modèle » and « Partir d’un modèle » (the starter library) open
 * the editor, as « Modifier » does for a template the person may change. A locked template is the
 * organization's: only an admin who sees the whole organization changes it, and locks one.
 */
export function PlanTemplates({
  sites,
  regions,
  severityLabels,
}: {
  sites: readonly Named[];
  regions: readonly Named[];
  severityLabels: Record<Severity, string>;
}) {
  const can = useCan();
  const { user } = useAuth();
  const templates = useTaskTemplates({ enabled: can(endpoints.taskTemplates.list) });
  const scoped = Boolean(user?.scope);
  const mayLock = user?.role === 'admin' && !scoped;
  const canCreate = can(endpoints.taskTemplates.create);
  const canUpdate = can(endpoints.taskTemplates.update);
  const [editor, setEditor] = useState<EditorState>({ kind: 'closed' });
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const base = useId();
  const ids = { create: `${base}-create`, library: `${base}-library`, edit: (id: string) => `${base}-edit-${id}` };

  // Closed, the editor gives the focus back to the button that opened it.
  const returnFocus = useRef<string | null>(null);
  useEffect(() => {
    if (editor.kind !== 'closed' || !returnFocus.current) return;
    (document.getElementById(returnFocus.current) ?? document.getElementById(ids.create))?.focus();
    returnFocus.current = null;
  });

  const mySites = new Set(sites.map((site) => site.id));
  /** What the server lets the person change: not locked (but by a whole-organization admin), and, scoped, only templates of their own sites. */
  const changeable = (template: TaskTemplate) =>
    canUpdate &&
    (!template.locked || mayLock) &&
    (!scoped || (template.regionIds.length === 0 && template.siteIds.length > 0 && template.siteIds.every((id) => mySites.has(id))));

  const open = (next: EditorState, from: string) => {
    returnFocus.current = from;
    setDone(null);
    setLibraryOpen(false);
    setEditor(next);
  };
  const close = (message: string | null) => {
    if (message) setDone(message);
    setEditor({ kind: 'closed' });
  };

  const editorOpen = editor.kind !== 'closed';
  return (
    <div className="space-y-6">
      {canCreate && !editorOpen && (
        <div className="flex flex-wrap gap-3">
          <Button
            id={ids.create}
            variant="primary"
            onClick={() => open({ kind: 'new' }, ids.create)}
            icon={<Plus className="size-4" aria-hidden="true" />}
          >
            Nouveau modèle
          </Button>
          <Button
            id={`${ids.library}-toggle`}
            variant="secondary"
            aria-expanded={libraryOpen}
            aria-controls={ids.library}
            onClick={() => setLibraryOpen((shown) => !shown)}
            icon={<BookOpen className="size-4" aria-hidden="true" />}
          >
            Partir d’un modèle
          </Button>
        </div>
      )}
      <FormStatus success={done} />
      {canCreate && libraryOpen && !editorOpen && (
        <LibraryPanel id={ids.library} onPick={(entry) => open({ kind: 'new', start: entry }, `${ids.library}-toggle`)} />
      )}
      {editorOpen && (
        <TemplateEditor
          key={editor.kind === 'edit' ? editor.template.id : (editor.start?.id ?? 'new')}
          template={editor.kind === 'edit' ? editor.template : undefined}
          start={editor.kind === 'new' ? editor.start : undefined}
          sites={sites}
          regions={scoped ? [] : regions}
          severityLabels={severityLabels}
          scoped={scoped}
          mayLock={mayLock}
          onDone={close}
        />
      )}
      <section aria-labelledby={`${base}-list`} className="space-y-3">
        <h2 id={`${base}-list`} className="text-lg font-semibold text-white">
          Modèles du plan {templates.data && <span className="font-normal text-slate-400">({templates.data.length})</span>}
        </h2>
        {templates.isError ? (
          <Alert>{errorMessage(templates.error, LOAD_ERROR)}</Alert>
        ) : !templates.data ? (
          <p role="status" className="text-sm text-slate-300">
            Chargement des modèles…
          </p>
        ) : templates.data.length === 0 ? (
          <p className="text-sm text-slate-300">
            Aucun modèle pour l’instant{NNBSP}: partez d’un modèle de la bibliothèque, ou créez le vôtre.
          </p>
        ) : (
          <ul className="space-y-3">
            {templates.data.map((template) => (
              <TemplateRow
                key={template.id}
                template={template}
                sites={sites}
                regions={regions}
                severityLabels={severityLabels}
                editable={!editorOpen && changeable(template)}
                lockedForMe={template.locked && !mayLock}
                editing={editor.kind === 'edit' && editor.template.id === template.id}
                editId={ids.edit(template.id)}
                onEdit={() => open({ kind: 'edit', template }, ids.edit(template.id))}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
