import type { Rule } from '@vigie/contract';
import { RULE_PRESETS, type RulePreset } from '@vigie/contract/presets';
import { Lock, Pencil, Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { DetailSection, inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { usePermissions } from '@/lib/permissions';
import { useCreateRule, useDeleteRule, useRules, useUpdateRule } from '../api/rules';
import type { RuleTarget } from '../alert-keys';
import { delayText, describeCondition, SCHEDULE_LABELS } from '../alert-format';
import { AlertingFields, ConditionFields, fieldClass, NEW_RULE_DRAFT, readRuleDraft, ruleDraftOf, type RuleDraft } from './rule-fields';
import { SeverityBadge } from './severity-badge';
import { FieldLabel } from '@/components/ui/field-label';

/** A door opened for a delivery is not a failure: presets wait five minutes before alerting. */
const PRESET_DELAY_SECONDS = 300;
const PRESET_HYSTERESIS = 0.5;

const pill = 'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold';

/** « Modèle « Crèmerie ≤ +4 °C » » and « verrouillé »: the organization's template a rule comes from. */
function TemplateBadges({ template }: { template: NonNullable<Rule['template']> }) {
  return (
    <span className="flex flex-wrap items-center gap-2">
      <span className={`${pill} border-cyan-300/40 bg-cyan-400/10 [overflow-wrap:anywhere] text-cyan-100`}>
        {`Modèle «\u202F${template.name}\u202F»`}
      </span>
      {template.locked && (
        <span className={`${pill} border-white/20 bg-white/5 text-slate-200`}>
          <Lock className="size-3" aria-hidden="true" />
          verrouillé
        </span>
      )}
    </span>
  );
}

/** A rule of one's own, or changes to one (`rule`): any condition, delay, hysteresis, schedule and severity. */
function RuleForm({ target, rule, onDone }: { target: RuleTarget; rule?: Rule; onDone: () => void }) {
  const create = useCreateRule({ target });
  const update = useUpdateRule({ target });
  const [name, setName] = useState(rule?.name ?? '');
  const [draft, setDraft] = useState<RuleDraft>(() => (rule ? ruleDraftOf(rule) : NEW_RULE_DRAFT));
  const [error, setError] = useState<string | null>(null);
  const ids = { name: useId(), status: useId() };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('Donnez un nom à la règle.');
    const values = readRuleDraft(draft);
    if (typeof values === 'string') return setError(values);
    setError(null);
    if (rule) {
      // A template's rule: the server refuses what would loosen a locked one, and says why.
      update.mutate(
        { id: rule.id, changes: { name: name.trim(), ...values } },
        { onSuccess: onDone, onError: (failure) => setError(errorMessage(failure, 'La règle n’a pas été modifiée.')) },
      );
      return;
    }
    create.mutate(
      { name: name.trim(), ...target, ...values },
      { onSuccess: onDone, onError: (failure) => setError(errorMessage(failure, 'La règle n’a pas été créée.')) },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 rounded-xl border border-white/10 p-4 sm:grid-cols-2">
      {rule?.template?.locked && (
        <p className="text-sm text-slate-300 sm:col-span-2">
          Cette règle vient d’un modèle verrouillé{'\u202F'}: ce magasin peut la resserrer (limite plus stricte, délai plus court), pas la
          relâcher.
        </p>
      )}
      <div className={`${fieldClass} sm:col-span-2`}>
        <FieldLabel htmlFor={ids.name}>Nom de la règle</FieldLabel>
        <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} className={inputClass} />
      </div>
      <ConditionFields draft={draft} onChange={setDraft} />
      <AlertingFields draft={draft} onChange={setDraft} />
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button type="submit" variant="primary" busy={rule ? update.isPending : create.isPending}>
          {rule ? 'Enregistrer la règle' : 'Créer la règle'}
        </Button>
        <Button onClick={onDone}>Annuler</Button>
        <FormStatus id={ids.status} error={error} />
      </div>
    </form>
  );
}

function RuleRow({ rule, target, canManage }: { rule: Rule; target: RuleTarget; canManage: boolean }) {
  const remove = useDeleteRule({ target });
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const template = rule.template ?? null;

  const onRemove = () => {
    setError(null);
    remove.mutate(rule.id, { onError: (failure) => setError(errorMessage(failure, 'La règle n’a pas été supprimée.')) });
  };

  return (
    <li className="space-y-3 rounded-xl border border-white/10 p-3" data-testid="alert-rule">
      <div className="flex flex-wrap items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2 font-medium [overflow-wrap:anywhere] text-white">
            {rule.name} <SeverityBadge severity={rule.severity} />
          </p>
          <p className="text-sm text-slate-300">
            {describeCondition(rule.condition)} · alerte {delayText(rule.delaySeconds)} · {SCHEDULE_LABELS[rule.schedule]}
          </p>
          {rule.preset && (
            <p className="text-xs text-slate-400">
              Source{'\u202f'}: {RULE_PRESETS[rule.preset].source}
            </p>
          )}
          {template && (
            <div className="mt-2 space-y-1">
              <TemplateBadges template={template} />
              {/* A template's rule stays while the template aims at the shop: it is removed there, not here. */}
              {canManage && <p className="text-xs text-slate-400">Retirez ce magasin du modèle pour l’enlever.</p>}
            </div>
          )}
        </div>
        {canManage && (
          <div className="flex flex-wrap gap-2">
            {!editing && (
              <Button
                size="sm"
                onClick={() => setEditing(true)}
                aria-label={`Modifier la règle ${rule.name}`}
                icon={<Pencil className="size-4" aria-hidden="true" />}
              >
                Modifier
              </Button>
            )}
            {!template && (
              <Button
                variant="danger"
                size="sm"
                busy={remove.isPending}
                onClick={onRemove}
                aria-label={`Supprimer la règle ${rule.name}`}
                icon={<Trash2 className="size-4" aria-hidden="true" />}
              >
                Supprimer
              </Button>
            )}
          </div>
        )}
      </div>
      {error && <FormStatus error={error} />}
      {editing && <RuleForm target={target} rule={rule} onDone={() => setEditing(false)} />}
    </li>
  );
}

/**
 * The alert rules of a sensor, or of a site (every sensor of the site that reports the measure):
 * the regulation's presets one click away, or a rule of one's own.
 */
export function RuleEditor({ target }: { target: RuleTarget }) {
  const rules = useRules({ target });
  const create = useCreateRule({ target });
  const id = 'sensorId' in target ? target.sensorId : target.siteId;
  const forSite = 'siteId' in target;
  const [custom, setCustom] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const statusId = useId();
  // Rules are set by admins and managers; a viewer sees what is watched.
  const { manage } = usePermissions();

  const addPreset = (preset: RulePreset) => {
    setError(null);
    create.mutate(
      { name: RULE_PRESETS[preset].label, ...target, preset, delaySeconds: PRESET_DELAY_SECONDS, hysteresis: PRESET_HYSTERESIS },
      { onError: (failure) => setError(errorMessage(failure, 'La règle n’a pas été créée.')) },
    );
  };

  return (
    <DetailSection
      id={`rules-${id}`}
      title={forSite ? 'Règles du site' : 'Règles d’alerte'}
      description={
        forSite
          ? 'Chaque règle s’applique à tous les capteurs du site qui mesurent sa grandeur, y compris ceux installés plus tard.'
          : 'Vigie ouvre une alerte quand une règle n’est plus respectée, même si le capteur se tait.'
      }
    >
      <div className="space-y-4">
        {rules.data && rules.data.length > 0 ? (
          <ul className="space-y-2">
            {rules.data.map((rule) => (
              <RuleRow key={rule.id} rule={rule} target={target} canManage={manage} />
            ))}
          </ul>
        ) : (
          rules.isSuccess && (
            <p className="text-sm text-slate-300">
              {forSite ? 'Aucune règle pour ce site.' : 'Aucune règle\u202f: ce capteur n’est pas surveillé.'}
            </p>
          )
        )}
        {manage && (
          <>
            <div>
              <p className="mb-2 text-sm font-medium text-slate-200">Ajouter un préréglage réglementaire (alerte après 5 min) :</p>
              <div className="flex flex-wrap gap-2">
                {(Object.keys(RULE_PRESETS) as RulePreset[]).map((preset) => (
                  <Button
                    key={preset}
                    variant="secondary"
                    size="sm"
                    busy={create.isPending && create.variables?.preset === preset}
                    onClick={() => addPreset(preset)}
                    icon={<Plus className="size-4" aria-hidden="true" />}
                  >
                    {RULE_PRESETS[preset].label}
                  </Button>
                ))}
              </div>
              <FormStatus id={statusId} error={error} className="mt-2" />
            </div>
            {custom ? (
              <RuleForm target={target} onDone={() => setCustom(false)} />
            ) : (
              <Button variant="ghost" size="sm" onClick={() => setCustom(true)}>
                Règle personnalisée…
              </Button>
            )}
          </>
        )}
      </div>
    </DetailSection>
  );
}
