import type { Severity, TaskLibraryEntry, TaskTemplate } from '@vigie/contract';
import { Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { FormStatus } from '@/components/ui/form-status';
import { errorMessage } from '@/lib/errors';
import { useCreateTaskTemplate, useDeleteTaskTemplate, useUpdateTaskTemplate } from '../api/template-queries';
import { draftOf, readDraft, type TemplateDraft } from '../template-draft';
import { TemplateBasicsFields } from './template-basics';
import { TemplateCoverageFields, type Named } from './template-coverage';
import { checkClass, hintClass, useFieldIds } from './template-fields';
import { TemplateItemsFields } from './template-items';
import { TemplateScheduleFields } from './template-schedule';

const NNBSP = '\u202F';
const quoted = (text: string) => `«${NNBSP}${text}${NNBSP}»`;

export type { Named } from './template-coverage';

/**
 * The editor of a template of the plan: a new one (blank, or from a `start` of the library) or a
 * saved one (`template`). Everything typed stays in the form when it is refused; « Enregistrer »
 * sends it whole (POST for a new one, PUT for a saved one), « Supprimer » asks first.
 */
export function TemplateEditor({
  template,
  start,
  sites,
  regions,
  severityLabels,
  scoped,
  mayLock,
  onDone,
}: {
  template?: TaskTemplate;
  start?: TaskLibraryEntry;
  sites: readonly Named[];
  regions: readonly Named[];
  severityLabels: Record<Severity, string>;
  /** A member who sees some sites only: they name their sites, and have no « Tous les sites » nor regions. */
  scoped: boolean;
  /** An admin who sees the whole organization: the only one who locks a template. */
  mayLock: boolean;
  /** Closed: what was done (« Modèle « Ouverture » enregistré. »), or null when left. */
  onDone: (message: string | null) => void;
}) {
  const create = useCreateTaskTemplate();
  const update = useUpdateTaskTemplate();
  const remove = useDeleteTaskTemplate();
  const [draft, setDraft] = useState<TemplateDraft>(() => draftOf(template ?? start?.request, { scoped }));
  const [error, setError] = useState<string | null>(null);
  const [invalidField, setInvalidField] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const base = useId();
  const statusId = `${base}-status`;
  const ids = useFieldIds(base, invalidField, statusId);
  const heading = useRef<HTMLHeadingElement>(null);

  // Opened: the focus goes to its title, so that a keyboard or a screen reader starts there.
  useEffect(() => {
    heading.current?.focus();
  }, []);

  const set = (changes: Partial<TemplateDraft>) => setDraft((current) => ({ ...current, ...changes }));
  const title = template
    ? `Modifier le modèle ${quoted(template.name)}`
    : start
      ? `Nouveau modèle d’après ${quoted(start.request.name)}`
      : 'Nouveau modèle';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const read = readDraft(draft, { scoped, mayLock });
    if ('error' in read) {
      setError(read.error);
      setInvalidField(read.field);
      document.getElementById(ids.id(read.field))?.focus();
      return;
    }
    setError(null);
    setInvalidField(null);
    const { request } = read;
    // The server's reason, in French, under the form; the form keeps what was typed.
    const onError = (failure: Error) =>
      setError(errorMessage(failure, template ? 'Le modèle n’a pas été enregistré.' : 'Le modèle n’a pas été créé.'));
    const onSuccess = () => onDone(`Modèle ${quoted(request.name)} enregistré.`);
    if (template) update.mutate({ id: template.id, request }, { onSuccess, onError });
    else create.mutate(request, { onSuccess, onError });
  };

  const onConfirmRemove = () => {
    if (!template) return;
    setError(null);
    remove.mutate(template.id, {
      onSuccess: () => onDone(`Modèle ${quoted(template.name)} supprimé.`),
      onError: (failure) => setError(errorMessage(failure, 'Le modèle n’a pas été supprimé.')),
      onSettled: () => setConfirming(false),
    });
  };

  const busy = create.isPending || update.isPending;
  return (
    <section
      aria-labelledby={`${base}-title`}
      className="rounded-2xl border border-cyan-300/30 bg-slate-900/60 p-4 shadow-lg shadow-black/20 backdrop-blur sm:p-6"
    >
      <h2 id={`${base}-title`} ref={heading} tabIndex={-1} className="text-lg font-semibold [overflow-wrap:anywhere] text-white">
        {title}
      </h2>
      {start && <p className="mt-1 text-sm text-slate-300">{start.description} Adaptez-le avant de l’enregistrer.</p>}
      <form onSubmit={onSubmit} noValidate aria-labelledby={`${base}-title`} className="mt-4 space-y-6">
        <TemplateBasicsFields draft={draft} ids={ids} severityLabels={severityLabels} onChange={set} />

        <TemplateItemsFields items={draft.items} ids={ids} onChange={(items) => set({ items })} />

        <TemplateScheduleFields draft={draft} ids={ids} onChange={set} />

        <TemplateCoverageFields draft={draft} ids={ids} scoped={scoped} sites={sites} regions={regions} onChange={set} />

        {mayLock && (
          <div className="space-y-1">
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-slate-200">
              <input
                type="checkbox"
                checked={draft.locked}
                aria-describedby={ids.id('locked-hint')}
                onChange={(event) => set({ locked: event.target.checked })}
                className={checkClass}
              />
              Verrouiller
            </label>
            <p id={ids.id('locked-hint')} className={hintClass}>
              Le modèle de l’enseigne{NNBSP}: seul un administrateur qui voit toute l’organisation peut le modifier ou le supprimer.
            </p>
          </div>
        )}

        <div className="flex flex-wrap items-center gap-3 border-t border-white/10 pt-4">
          <Button type="submit" variant="primary" busy={busy}>
            Enregistrer
          </Button>
          <Button onClick={() => onDone(null)}>Annuler</Button>
          {template && (
            <Button
              variant="danger"
              onClick={() => setConfirming(true)}
              className="sm:ml-auto"
              icon={<Trash2 className="size-4" aria-hidden="true" />}
            >
              Supprimer
            </Button>
          )}
          <FormStatus id={statusId} error={error} className="basis-full" />
        </div>
      </form>
      {template && (
        <ConfirmDialog
          open={confirming}
          title={`Supprimer le modèle ${quoted(template.name)}${NNBSP}?`}
          confirmLabel={remove.isPending ? 'Suppression…' : 'Supprimer'}
          busy={remove.isPending}
          onConfirm={onConfirmRemove}
          onCancel={() => setConfirming(false)}
        >
          Ses tâches à venir disparaissent de chaque site{NNBSP}; celles déjà échues restent au registre.
        </ConfirmDialog>
      )}
    </section>
  );
}
