import type { CreateRuleTemplateRequest, RuleTemplate, UpdateRuleTemplateRequest } from '@vigie/contract';
import { RULE_PRESETS, type RulePreset } from '@vigie/contract/presets';
import { endpoints } from '@vigie/contract/routes';
import { Lock, LockOpen, Pencil, Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { ConfirmDialog } from '@/components/ui/dialog';
import { FormStatus } from '@/components/ui/form-status';
import { DetailSection, inputClass } from '@/components/ui/section';
import { coverageText, type Named } from '@/lib/coverage-text';
import { useAuth } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { useCreateRuleTemplate, useDeleteRuleTemplate, useRuleTemplates, useUpdateRuleTemplate } from '../api/template-queries';
import { delayText, describeCondition, SCHEDULE_LABELS, shopCount } from '../alert-format';
import {
  AlertingFields,
  CONDITION_TYPES,
  ConditionFields,
  fieldClass,
  NEW_RULE_DRAFT,
  readAlerting,
  readCondition,
  ruleDraftOf,
  sameCondition,
  type RuleDraft,
} from './rule-fields';
import { SeverityBadge } from './severity-badge';
import { FieldLabel } from '@/components/ui/field-label';

const NNBSP = '\u202F';

/** A site or a region, as the templates name them. */

/** A template watches a measure in every sensor of its sites: « Hors ligne » is set per sensor or per site. */
const TEMPLATE_TYPES = CONDITION_TYPES.filter((type) => type !== 'offline');
const PRESETS = Object.keys(RULE_PRESETS) as RulePreset[];
const CUSTOM = 'custom';
type RuleChoice = RulePreset | typeof CUSTOM;

const pill = 'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold';

/** Where a template applies: « Tous les magasins », or « Région : Rhône-Alpes · Magasins : Paris, Lille ». */
export const targetText = (template: Pick<RuleTemplate, 'siteIds' | 'regionIds'>, sites: readonly Named[], regions: readonly Named[]) =>
  coverageText(template, sites, regions, { everywhere: 'Tous les magasins', site: ['Magasin', 'Magasins'] });

/** « Capteurs dont le nom contient « crèmerie » ou « yaourts » », or every sensor of the measure. */
export function unitsText(words: readonly string[]): string {
  if (words.length === 0) return 'Tous les capteurs de la mesure';
  const quoted = words.map((word) => `«${NNBSP}${word}${NNBSP}»`);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} ou ${quoted[quoted.length - 1]}`;
  return `Capteurs dont le nom contient ${list}`;
}

/** The words typed, split on commas and semicolons, without blanks. */
const wordsOf = (text: string) =>
  text
    .split(/[,;]/u)
    .map((word) => word.trim())
    .filter((word) => word.length > 0);

/** « Nouveau modèle », or the changes to one (`template`): its rule, whether it is locked, and where it applies. */
function TemplateForm({
  template,
  sites,
  regions,
  onDone,
}: {
  template?: RuleTemplate;
  sites: readonly Named[];
  regions: readonly Named[];
  onDone: () => void;
}) {
  const create = useCreateRuleTemplate();
  const update = useUpdateRuleTemplate();
  const [name, setName] = useState(template?.name ?? '');
  const [choice, setChoice] = useState<RuleChoice>(template ? (template.preset ?? CUSTOM) : 'chilled_very_perishable');
  const [draft, setDraft] = useState<RuleDraft>(() => (template ? ruleDraftOf(template) : NEW_RULE_DRAFT));
  const [locked, setLocked] = useState(template?.locked ?? true);
  const [everywhere, setEverywhere] = useState(!template || template.siteIds.length + template.regionIds.length === 0);
  const [regionIds, setRegionIds] = useState<string[]>(template?.regionIds ?? []);
  const [siteIds, setSiteIds] = useState<string[]>(template?.siteIds ?? []);
  const [units, setUnits] = useState(template?.sensorNameContains.join(', ') ?? '');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('Donnez un nom au modèle.');
    const condition = choice === CUSTOM ? readCondition(draft) : { ...RULE_PRESETS[choice].condition };
    if (typeof condition === 'string') return setError(condition);
    const alerting = readAlerting(draft);
    if (typeof alerting === 'string') return setError(alerting);
    if (!everywhere && regionIds.length + siteIds.length === 0)
      return setError(`Cochez au moins une région ou un magasin, ou choisissez «${NNBSP}Tous les magasins${NNBSP}».`);
    const sensorNameContains = wordsOf(units);
    if (sensorNameContains.some((word) => word.length < 2))
      return setError('Chaque mot du nom des capteurs visés doit compter au moins 2 caractères.');
    setError(null);
    const targets = { ...(everywhere ? { siteIds: [], regionIds: [] } : { siteIds, regionIds }), sensorNameContains };
    const onError = (failure: Error) =>
      setError(errorMessage(failure, template ? 'Le modèle n’a pas été modifié.' : 'Le modèle n’a pas été créé.'));
    if (template) {
      // The condition goes only when it changed: a preset's template keeps naming its preset.
      const changes: UpdateRuleTemplateRequest = {
        name: name.trim(),
        ...(sameCondition(condition, template.condition) ? {} : { condition }),
        ...alerting,
        locked,
        ...targets,
      };
      update.mutate({ id: template.id, changes }, { onSuccess: onDone, onError });
      return;
    }
    const body: CreateRuleTemplateRequest = {
      name: name.trim(),
      ...(choice === CUSTOM ? { condition } : { preset: choice }),
      ...alerting,
      locked,
      ...targets,
    };
    create.mutate(body, { onSuccess: onDone, onError });
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={template ? `Modifier le modèle ${template.name}` : 'Nouveau modèle'}
      className="grid gap-4 rounded-xl border border-white/10 p-4 sm:grid-cols-2"
    >
      <div className={`${fieldClass} sm:col-span-2`}>
        <FieldLabel htmlFor={`${id}-name`}>Nom du modèle</FieldLabel>
        <input
          id={`${id}-name`}
          value={name}
          placeholder="Crèmerie ≤ +4 °C"
          onChange={(event) => setName(event.target.value)}
          className={inputClass}
        />
      </div>
      <div className={`${fieldClass} sm:col-span-2`}>
        <FieldLabel htmlFor={`${id}-rule`}>Règle</FieldLabel>
        <select id={`${id}-rule`} value={choice} onChange={(event) => setChoice(event.target.value as RuleChoice)} className={inputClass}>
          <optgroup label="Préréglages réglementaires">
            {PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {RULE_PRESETS[preset].label}
              </option>
            ))}
          </optgroup>
          <option value={CUSTOM}>Condition personnalisée</option>
        </select>
        {choice !== CUSTOM && (
          <p className="text-xs text-slate-400">
            Source{NNBSP}: {RULE_PRESETS[choice].source}
          </p>
        )}
      </div>
      {choice === CUSTOM && <ConditionFields draft={draft} onChange={setDraft} types={TEMPLATE_TYPES} />}
      <AlertingFields draft={draft} onChange={setDraft} />
      <div className={`${fieldClass} sm:col-span-2`}>
        <FieldLabel htmlFor={`${id}-units`}>Capteurs dont le nom contient</FieldLabel>
        <input
          id={`${id}-units`}
          value={units}
          placeholder="crèmerie, yaourts"
          aria-describedby={`${id}-units-hint`}
          onChange={(event) => setUnits(event.target.value)}
          className={inputClass}
        />
        <p id={`${id}-units-hint`} className="text-xs text-slate-400">
          Des mots séparés par des virgules, sans tenir compte des majuscules ni des accents{NNBSP}: seuls ces meubles suivent le modèle, y
          compris ceux installés plus tard. Vide, tous les capteurs qui mesurent la grandeur.
        </p>
      </div>
      <div className="space-y-1 sm:col-span-2">
        <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-slate-200">
          <input
            type="checkbox"
            checked={locked}
            aria-describedby={`${id}-locked`}
            onChange={(event) => setLocked(event.target.checked)}
            className="size-4 accent-cyan-400"
          />
          Verrouiller
        </label>
        <p id={`${id}-locked`} className="text-xs text-slate-400">
          Un magasin pourra resserrer sa règle, pas la relâcher, la désactiver ni la supprimer. Sans verrou, il peut la modifier.
        </p>
      </div>
      <fieldset className="min-w-0 space-y-3 sm:col-span-2">
        <legend className="mb-2 text-sm font-medium text-slate-200">Magasins visés</legend>
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-4">
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-200">
            <input
              type="radio"
              name={`${id}-where`}
              checked={everywhere}
              onChange={() => setEverywhere(true)}
              className="size-4 accent-cyan-400"
            />
            Tous les magasins
          </label>
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-200">
            <input
              type="radio"
              name={`${id}-where`}
              checked={!everywhere}
              onChange={() => setEverywhere(false)}
              className="size-4 accent-cyan-400"
            />
            Des régions ou des magasins choisis
          </label>
        </div>
        <p className="text-xs text-slate-400">
          {everywhere
            ? 'Chaque magasin, y compris ceux ajoutés plus tard.'
            : 'Les magasins cochés, et ceux des régions cochées, y compris ceux qui les rejoindront.'}
        </p>
        {!everywhere && (
          <div className="grid gap-4">
            {regions.length > 0 && (
              <CheckboxList legend="Régions" empty="Aucune région." items={regions} checked={regionIds} onChange={setRegionIds} />
            )}
            <CheckboxList legend="Magasins" empty="Aucun magasin." items={sites} checked={siteIds} onChange={setSiteIds} />
          </div>
        )}
      </fieldset>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button type="submit" variant="primary" busy={template ? update.isPending : create.isPending}>
          {template ? 'Enregistrer le modèle' : 'Créer le modèle'}
        </Button>
        <Button onClick={onDone}>Annuler</Button>
        <FormStatus id={`${id}-status`} error={error} />
      </div>
    </form>
  );
}

function TemplateRow({
  template,
  sites,
  regions,
  canManage,
  onRemove,
}: {
  template: RuleTemplate;
  sites: readonly Named[];
  regions: readonly Named[];
  canManage: boolean;
  onRemove: () => void;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <li className="space-y-3 rounded-xl border border-white/10 p-3" data-testid="rule-template">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1 space-y-1">
          <p className="flex flex-wrap items-center gap-2 font-medium [overflow-wrap:anywhere] text-white">
            {template.name} <SeverityBadge severity={template.severity} />
            {template.locked ? (
              <span className={`${pill} border-white/20 bg-white/5 text-slate-200`}>
                <Lock className="size-3" aria-hidden="true" />
                Verrouillé
              </span>
            ) : (
              <span className={`${pill} border-emerald-300/40 bg-emerald-400/10 text-emerald-100`}>
                <LockOpen className="size-3" aria-hidden="true" />
                Modifiable par les magasins
              </span>
            )}
          </p>
          <p className="text-sm text-slate-300">
            {describeCondition(template.condition)} · alerte {delayText(template.delaySeconds)} · {SCHEDULE_LABELS[template.schedule]}
          </p>
          <p className="text-sm [overflow-wrap:anywhere] text-slate-300">
            {targetText(template, sites, regions)} · appliqué à {shopCount(template.appliedSiteIds.length)}
          </p>
          <p className="text-sm [overflow-wrap:anywhere] text-slate-300">{unitsText(template.sensorNameContains)}</p>
        </div>
        {canManage && !editing && (
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              onClick={() => setEditing(true)}
              aria-label={`Modifier le modèle ${template.name}`}
              icon={<Pencil className="size-4" aria-hidden="true" />}
            >
              Modifier
            </Button>
            <Button
              size="sm"
              variant="danger"
              onClick={onRemove}
              aria-label={`Supprimer le modèle ${template.name}`}
              icon={<Trash2 className="size-4" aria-hidden="true" />}
            >
              Supprimer
            </Button>
          </div>
        )}
      </div>
      {editing && <TemplateForm template={template} sites={sites} regions={regions} onDone={() => setEditing(false)} />}
    </li>
  );
}

/**
 * « Modèles de règles »: the organization's rules laid in every shop aimed at, present and future.
 * Everyone reads them; an admin who sees the whole organization creates, changes and removes them.
 */
export function RuleTemplates({ sites, regions }: { sites: readonly Named[]; regions: readonly Named[] }) {
  const templates = useRuleTemplates();
  const remove = useDeleteRuleTemplate();
  const { user } = useAuth();
  // As the server holds it: an admin, and one whose scope is the whole organization (no scope).
  const canManage = useCan()(endpoints.ruleTemplates.create) && !user?.scope;
  const [creating, setCreating] = useState(false);
  const [removing, setRemoving] = useState<RuleTemplate | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const statusId = useId();

  const onConfirmRemove = () => {
    if (!removing) return;
    const { id, name } = removing;
    setError(null);
    setDone(null);
    remove.mutate(id, {
      onSuccess: () => setDone(`Modèle «${NNBSP}${name}${NNBSP}» supprimé.`),
      onError: (failure) => setError(errorMessage(failure, 'Le modèle n’a pas été supprimé.')),
      onSettled: () => setRemoving(null),
    });
  };

  const applied = removing?.appliedSiteIds.length ?? 0;
  return (
    <DetailSection
      id="rule-templates"
      title="Modèles de règles"
      description="Une règle pour tous les magasins visés, ceux d’aujourd’hui et ceux de demain. Verrouillé, un magasin peut la resserrer, pas la relâcher."
    >
      {templates.isError ? (
        <Alert size="compact">{errorMessage(templates.error, 'Les modèles de règles n’ont pas pu être lus.')}</Alert>
      ) : !templates.data ? (
        <p role="status" className="text-sm text-slate-300">
          Chargement des modèles…
        </p>
      ) : (
        <div className="space-y-4">
          {templates.data.length > 0 ? (
            <ul className="space-y-2">
              {templates.data.map((template) => (
                <TemplateRow
                  key={template.id}
                  template={template}
                  sites={sites}
                  regions={regions}
                  canManage={canManage}
                  onRemove={() => setRemoving(template)}
                />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-300">Aucun modèle de règle{NNBSP}: chaque magasin a ses propres règles.</p>
          )}
          {canManage && (
            <>
              {creating ? (
                <TemplateForm sites={sites} regions={regions} onDone={() => setCreating(false)} />
              ) : (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setCreating(true)}
                  icon={<Plus className="size-4" aria-hidden="true" />}
                >
                  Nouveau modèle
                </Button>
              )}
              <FormStatus id={statusId} error={error} success={done} />
            </>
          )}
        </div>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={removing ? `Supprimer le modèle «${NNBSP}${removing.name}${NNBSP}»${NNBSP}?` : `Supprimer ce modèle${NNBSP}?`}
        confirmLabel={remove.isPending ? 'Suppression…' : 'Supprimer'}
        busy={remove.isPending}
        onConfirm={onConfirmRemove}
        onCancel={() => setRemoving(null)}
      >
        {applied > 0
          ? `Ses règles seront retirées de ${shopCount(applied)}${NNBSP}; leurs alertes en cours seront closes, leur historique gardé.`
          : 'Il n’a posé de règle dans aucun magasin.'}
      </ConfirmDialog>
    </DetailSection>
  );
}
