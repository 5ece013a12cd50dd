import type { CreateRuleRequest, Rule, RuleSchedule, Severity } from '@vigie/contract';
import { RULE_PRESETS, type RulePreset } from '@vigie/contract/presets';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { DetailSection, inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { usePermissions } from '@/lib/permissions';
import { useCreateRule, useDeleteRule, useRules } from '../api/rules';
import type { RuleTarget } from '../alert-keys';
import { describeCondition, SCHEDULE_LABELS, SEVERITY_LABELS } from '../alert-format';
import { SeverityBadge } from './severity-badge';

/** A door opened for a delivery is not a failure: presets wait five minutes before alerting. */
const PRESET_DELAY_SECONDS = 300;
const PRESET_HYSTERESIS = 0.5;

type ConditionType = 'above' | 'below' | 'outside' | 'offline' | 'battery_below' | 'predicted';
const CONDITION_LABELS: Record<ConditionType, string> = {
  above: 'Au-dessus d’un seuil',
  below: 'En dessous d’un seuil',
  outside: 'Hors d’une plage',
  predicted: 'Dépassement prévu',
  offline: 'Hors ligne',
  battery_below: 'Batterie faible',
};

const parseNumber = (value: string) => (value.trim() === '' ? Number.NaN : Number(value.replace(',', '.').replace('−', '-')));

/** « Dépassement prévu »: the forecast crosses the threshold upwards or downwards within the horizon. */
type PredictedDirection = 'predicted_above' | 'predicted_below';
const DIRECTION_LABELS: Record<PredictedDirection, string> = {
  predicted_above: 'Au-dessus du seuil',
  predicted_below: 'En dessous du seuil',
};
const DEFAULT_WITHIN_MINUTES = 120;
/** The contract's MAX_PREDICTION_MINUTES (the forecast covers four hours), restated: a value import would bring zod along. */
const MAX_PREDICTION_MINUTES = 240;

/** The horizon of a « dépassement prévu », or why it is refused (the contract's bounds: 15 to 240 min). */
function parseWithinMinutes(value: string): number | string {
  const minutes = parseNumber(value);
  if (value.trim() === '') return `Indiquez l’horizon de prévision, de 15 à ${MAX_PREDICTION_MINUTES}\u00A0minutes.`;
  if (!Number.isFinite(minutes)) return 'L’horizon de prévision doit être un nombre de minutes.';
  if (!Number.isInteger(minutes)) return 'L’horizon de prévision doit être un nombre entier de minutes.';
  if (minutes < 15 || minutes > MAX_PREDICTION_MINUTES) return `L’horizon de prévision va de 15 à ${MAX_PREDICTION_MINUTES}\u00A0minutes.`;
  return minutes;
}

function delayText(seconds: number): string {
  if (seconds === 0) return 'aussitôt';
  return seconds % 60 === 0 ? `après ${seconds / 60}\u202Fmin` : `après ${seconds}\u202Fs`;
}

/** The custom rule form: any condition, delay, hysteresis, schedule and severity. */
function CustomRuleForm({ target, onDone }: { target: RuleTarget; onDone: () => void }) {
  const create = useCreateRule({ target });
  const [type, setType] = useState<ConditionType>('above');
  const [name, setName] = useState('');
  const [key, setKey] = useState('temperature');
  const [threshold, setThreshold] = useState('');
  const [max, setMax] = useState('');
  const [direction, setDirection] = useState<PredictedDirection>('predicted_above');
  const [within, setWithin] = useState(String(DEFAULT_WITHIN_MINUTES));
  const [delay, setDelay] = useState('5');
  const [hysteresis, setHysteresis] = useState('0,5');
  const [schedule, setSchedule] = useState<RuleSchedule>('always');
  const [severity, setSeverity] = useState<Severity>('critical');
  const [error, setError] = useState<string | null>(null);
  const ids = {
    name: useId(),
    type: useId(),
    key: useId(),
    threshold: useId(),
    max: useId(),
    direction: useId(),
    within: useId(),
    withinHint: useId(),
    delay: useId(),
    hysteresis: useId(),
    schedule: useId(),
    severity: useId(),
    status: useId(),
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const low = parseNumber(threshold);
    const high = parseNumber(max);
    const delayMinutes = parseNumber(delay);
    const band = parseNumber(hysteresis || '0');
    const needsThreshold = type !== 'offline';
    if (!name.trim()) return setError('Donnez un nom à la règle.');
    if (needsThreshold && !Number.isFinite(low)) return setError(type === 'outside' ? 'Indiquez le minimum.' : 'Indiquez le seuil.');
    if (type === 'outside' && !(Number.isFinite(high) && high > low)) return setError('Indiquez un maximum supérieur au minimum.');
    const withinMinutes = type === 'predicted' ? parseWithinMinutes(within) : DEFAULT_WITHIN_MINUTES;
    if (typeof withinMinutes === 'string') return setError(withinMinutes);
    if (!Number.isFinite(delayMinutes) || delayMinutes < 0) return setError('Le délai est un nombre de minutes, 0 ou plus.');
    if (!Number.isFinite(band) || band < 0) return setError('L’hystérésis est un nombre positif ou nul.');
    const condition: CreateRuleRequest['condition'] =
      type === 'offline'
        ? { type }
        : type === 'battery_below'
          ? { type, threshold: low }
          : type === 'outside'
            ? { type, key: key.trim(), min: low, max: high }
            : type === 'predicted'
              ? { type: direction, key: key.trim(), threshold: low, withinMinutes }
              : { type, key: key.trim(), threshold: low };
    setError(null);
    create.mutate(
      { name: name.trim(), ...target, condition, delaySeconds: Math.round(delayMinutes * 60), hysteresis: band, schedule, severity },
      { onSuccess: onDone, onError: (failure) => setError(errorMessage(failure, 'La règle n’a pas été créée.')) },
    );
  };

  const field = 'space-y-1.5';
  const label = 'block text-sm font-medium text-slate-200';
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 rounded-xl border border-white/10 p-4 sm:grid-cols-2">
      <div className={`${field} sm:col-span-2`}>
        <label htmlFor={ids.name} className={label}>
          Nom de la règle
        </label>
        <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} className={inputClass} />
      </div>
      <div className={field}>
        <label htmlFor={ids.type} className={label}>
          Condition
        </label>
        <select id={ids.type} value={type} onChange={(e) => setType(e.target.value as ConditionType)} className={inputClass}>
          {(Object.keys(CONDITION_LABELS) as ConditionType[]).map((value) => (
            <option key={value} value={value}>
              {CONDITION_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      {type === 'predicted' && (
        <div className={field}>
          <label htmlFor={ids.direction} className={label}>
            Sens
          </label>
          <select
            id={ids.direction}
            value={direction}
            onChange={(e) => setDirection(e.target.value as PredictedDirection)}
            className={inputClass}
          >
            {(Object.keys(DIRECTION_LABELS) as PredictedDirection[]).map((value) => (
              <option key={value} value={value}>
                {DIRECTION_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      )}
      {(type === 'above' || type === 'below' || type === 'outside' || type === 'predicted') && (
        <div className={field}>
          <label htmlFor={ids.key} className={label}>
            Mesure
          </label>
          <input id={ids.key} value={key} onChange={(e) => setKey(e.target.value)} className={inputClass} />
        </div>
      )}
      {type !== 'offline' && (
        <div className={field}>
          <label htmlFor={ids.threshold} className={label}>
            {type === 'outside' ? 'Minimum' : type === 'battery_below' ? 'Seuil (%)' : 'Seuil'}
          </label>
          <input
            id={ids.threshold}
            inputMode="decimal"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            className={inputClass}
          />
        </div>
      )}
      {type === 'predicted' && (
        <div className={field}>
          <label htmlFor={ids.within} className={label}>
            Prévu dans les (min)
          </label>
          <input
            id={ids.within}
            inputMode="numeric"
            value={within}
            aria-describedby={ids.withinHint}
            onChange={(e) => setWithin(e.target.value)}
            className={inputClass}
          />
          <p id={ids.withinHint} className="text-xs text-slate-400">
            {`De 15 à ${MAX_PREDICTION_MINUTES}\u00A0minutes\u202F: Vigie prévient dès que la prévision franchit le seuil dans ce délai.`}
          </p>
        </div>
      )}
      {type === 'outside' && (
        <div className={field}>
          <label htmlFor={ids.max} className={label}>
            Maximum
          </label>
          <input id={ids.max} inputMode="decimal" value={max} onChange={(e) => setMax(e.target.value)} className={inputClass} />
        </div>
      )}
      <div className={field}>
        <label htmlFor={ids.delay} className={label}>
          Délai avant l’alerte (min)
        </label>
        <input id={ids.delay} inputMode="decimal" value={delay} onChange={(e) => setDelay(e.target.value)} className={inputClass} />
      </div>
      <div className={field}>
        <label htmlFor={ids.hysteresis} className={label}>
          Hystérésis
        </label>
        <input
          id={ids.hysteresis}
          inputMode="decimal"
          value={hysteresis}
          onChange={(e) => setHysteresis(e.target.value)}
          className={inputClass}
        />
      </div>
      <div className={field}>
        <label htmlFor={ids.schedule} className={label}>
          Planning
        </label>
        <select id={ids.schedule} value={schedule} onChange={(e) => setSchedule(e.target.value as RuleSchedule)} className={inputClass}>
          {(Object.keys(SCHEDULE_LABELS) as RuleSchedule[]).map((value) => (
            <option key={value} value={value}>
              {SCHEDULE_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <div className={field}>
        <label htmlFor={ids.severity} className={label}>
          Gravité
        </label>
        <select id={ids.severity} value={severity} onChange={(e) => setSeverity(e.target.value as Severity)} className={inputClass}>
          {(Object.keys(SEVERITY_LABELS) as Severity[]).map((value) => (
            <option key={value} value={value}>
              {SEVERITY_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Créer la règle
        </Button>
        <FormStatus id={ids.status} error={error} />
      </div>
    </form>
  );
}

function RuleRow({ rule, target, canDelete }: { rule: Rule; target: RuleTarget; canDelete: boolean }) {
  const remove = useDeleteRule({ target });
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-xl border border-white/10 p-3" data-testid="alert-rule">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-white">
          {rule.name} <SeverityBadge severity={rule.severity} />
        </p>
        <p className="text-sm text-slate-300">
          {describeCondition(rule.condition)} · alerte {delayText(rule.delaySeconds)} · {SCHEDULE_LABELS[rule.schedule]}
        </p>
        {rule.preset && <p className="text-xs text-slate-400">Source : {RULE_PRESETS[rule.preset].source}</p>}
      </div>
      {canDelete && (
        <Button
          variant="danger"
          size="sm"
          busy={remove.isPending}
          onClick={() => remove.mutate(rule.id)}
          aria-label={`Supprimer la règle ${rule.name}`}
          icon={<Trash2 className="size-4" aria-hidden="true" />}
        >
          Supprimer
        </Button>
      )}
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
              <RuleRow key={rule.id} rule={rule} target={target} canDelete={manage} />
            ))}
          </ul>
        ) : (
          rules.isSuccess && (
            <p className="text-sm text-slate-300">
              {forSite ? 'Aucune règle pour ce site.' : 'Aucune règle : ce capteur n’est pas surveillé.'}
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
              <CustomRuleForm target={target} onDone={() => setCustom(false)} />
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
