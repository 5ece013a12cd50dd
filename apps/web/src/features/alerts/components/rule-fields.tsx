import type { Rule, RuleCondition, RuleSchedule, Severity } from '@vigie/contract';
import { useId } from 'react';
import { inputClass } from '@/components/ui/section';
import { SCHEDULE_LABELS, SEVERITY_LABELS } from '../alert-format';
import { FieldLabel } from '@/components/ui/field-label';

/**
 * The fields of a rule shared by the rule editor (a site's or a sensor's rules) and the
 * organization's templates: the condition, then the delay, hysteresis, schedule and gravity. They
 * hold text as typed (« 0,5 », « −18 »); `readRuleDraft` turns it into what is sent.
 */

export type ConditionType = 'above' | 'below' | 'outside' | 'offline' | 'battery_below' | 'predicted';
const CONDITION_LABELS: Record<ConditionType, string> = {
  above: 'Au-dessus d’un seuil',
  below: 'En dessous d’un seuil',
  outside: 'Hors d’une plage',
  predicted: 'Dépassement prévu',
  offline: 'Hors ligne',
  battery_below: 'Batterie faible',
};
export const CONDITION_TYPES = Object.keys(CONDITION_LABELS) as ConditionType[];

/** « Dépassement prévu »: the forecast crosses the threshold upwards or downwards within the horizon. */
type PredictedDirection = 'predicted_above' | 'predicted_below';
const DIRECTION_LABELS: Record<PredictedDirection, string> = {
  predicted_above: 'Au-dessus du seuil',
  predicted_below: 'En dessous du seuil',
};
const DEFAULT_WITHIN_MINUTES = 120;
/** The contract's MAX_PREDICTION_MINUTES (the forecast covers four hours), restated: a value import would bring zod along. */
const MAX_PREDICTION_MINUTES = 240;

const parseNumber = (value: string) => (value.trim() === '' ? Number.NaN : Number(value.replace(',', '.').replace('−', '-')));
/** A number as it is typed in French: « 4 », « 0,5 », « −18 ». */
const numberText = (value: number) => String(value).replace('.', ',').replace('-', '−');

/** The horizon of a « dépassement prévu », or why it is refused (the contract's bounds: 15 to 240 min). */
function parseWithinMinutes(value: string): number | string {
  const minutes = parseNumber(value);
  if (value.trim() === '') return `Indiquez l’horizon de prévision, de 15 à ${MAX_PREDICTION_MINUTES}\u00A0minutes.`;
  if (!Number.isFinite(minutes)) return 'L’horizon de prévision doit être un nombre de minutes.';
  if (!Number.isInteger(minutes)) return 'L’horizon de prévision doit être un nombre entier de minutes.';
  if (minutes < 15 || minutes > MAX_PREDICTION_MINUTES) return `L’horizon de prévision va de 15 à ${MAX_PREDICTION_MINUTES}\u00A0minutes.`;
  return minutes;
}

/** What the fields hold, as typed. */
export type RuleDraft = {
  type: ConditionType;
  key: string;
  /** The threshold, or the minimum of a range. */
  threshold: string;
  max: string;
  direction: PredictedDirection;
  within: string;
  /** Minutes. */
  delay: string;
  hysteresis: string;
  schedule: RuleSchedule;
  severity: Severity;
};

/** A new rule: a temperature above a threshold still to type, alerting after 5 min. */
export const NEW_RULE_DRAFT: RuleDraft = {
  type: 'above',
  key: 'temperature',
  threshold: '',
  max: '',
  direction: 'predicted_above',
  within: String(DEFAULT_WITHIN_MINUTES),
  delay: '5',
  hysteresis: '0,5',
  schedule: 'always',
  severity: 'critical',
};

export type RuleValues = Pick<Rule, 'condition' | 'delaySeconds' | 'hysteresis' | 'schedule' | 'severity'>;

/** The fields of an existing rule (or template), to change it. */
export function ruleDraftOf(rule: RuleValues): RuleDraft {
  const { condition } = rule;
  const draft: RuleDraft = {
    ...NEW_RULE_DRAFT,
    delay: numberText(rule.delaySeconds / 60),
    hysteresis: numberText(rule.hysteresis),
    schedule: rule.schedule,
    severity: rule.severity,
  };
  switch (condition.type) {
    case 'offline':
      return { ...draft, type: 'offline' };
    case 'battery_below':
      return { ...draft, type: 'battery_below', threshold: numberText(condition.threshold) };
    case 'outside':
      return { ...draft, type: 'outside', key: condition.key, threshold: numberText(condition.min), max: numberText(condition.max) };
    case 'predicted_above':
    case 'predicted_below':
      return {
        ...draft,
        type: 'predicted',
        direction: condition.type,
        key: condition.key,
        threshold: numberText(condition.threshold),
        within: String(condition.withinMinutes),
      };
    case 'above':
    case 'below':
      return { ...draft, type: condition.type, key: condition.key, threshold: numberText(condition.threshold) };
  }
}

/** The condition of a draft, or the French reason it is refused. */
export function readCondition(draft: RuleDraft): RuleCondition | string {
  const { type } = draft;
  const low = parseNumber(draft.threshold);
  const high = parseNumber(draft.max);
  const key = draft.key.trim();
  if (type !== 'offline' && !Number.isFinite(low)) return type === 'outside' ? 'Indiquez le minimum.' : 'Indiquez le seuil.';
  if (type === 'outside' && !(Number.isFinite(high) && high > low)) return 'Indiquez un maximum supérieur au minimum.';
  if (type === 'offline') return { type };
  if (type === 'battery_below') return { type, threshold: low };
  if (type === 'outside') return { type, key, min: low, max: high };
  if (type === 'predicted') {
    const withinMinutes = parseWithinMinutes(draft.within);
    if (typeof withinMinutes === 'string') return withinMinutes;
    return { type: draft.direction, key, threshold: low, withinMinutes };
  }
  return { type, key, threshold: low };
}

/** The delay, hysteresis, schedule and gravity of a draft, or the French reason they are refused. */
export function readAlerting(draft: RuleDraft): Omit<RuleValues, 'condition'> | string {
  const delayMinutes = parseNumber(draft.delay);
  const band = parseNumber(draft.hysteresis || '0');
  if (!Number.isFinite(delayMinutes) || delayMinutes < 0) return 'Le délai est un nombre de minutes, 0 ou plus.';
  if (!Number.isFinite(band) || band < 0) return 'L’hystérésis est un nombre positif ou nul.';
  return { delaySeconds: Math.round(delayMinutes * 60), hysteresis: band, schedule: draft.schedule, severity: draft.severity };
}

/** Everything a draft says, or the French reason it is refused (in the order of the fields). */
export function readRuleDraft(draft: RuleDraft): RuleValues | string {
  const condition = readCondition(draft);
  if (typeof condition === 'string') return condition;
  const alerting = readAlerting(draft);
  if (typeof alerting === 'string') return alerting;
  return { condition, ...alerting };
}

/** Whether two conditions say the same, whatever the order of their keys (jsonb keeps its own). */
export function sameCondition(a: RuleCondition, b: RuleCondition): boolean {
  const text = (condition: RuleCondition) => JSON.stringify(condition, Object.keys(condition).sort());
  return text(a) === text(b);
}

export const fieldClass = 'space-y-1.5';

type FieldsProps = { draft: RuleDraft; onChange: (draft: RuleDraft) => void };

/**
 * The condition's fields, each a cell of a two-column grid: its type, then what it needs (sense,
 * measure, threshold or range, horizon). `types`: the conditions offered (a template has no « Hors ligne »).
 */
export function ConditionFields({ draft, onChange, types = CONDITION_TYPES }: FieldsProps & { types?: readonly ConditionType[] }) {
  const ids = { type: useId(), key: useId(), threshold: useId(), max: useId(), direction: useId(), within: useId(), withinHint: useId() };
  const set = (changes: Partial<RuleDraft>) => onChange({ ...draft, ...changes });
  const { type } = draft;
  return (
    <>
      <div className={fieldClass}>
        <FieldLabel htmlFor={ids.type}>Condition</FieldLabel>
        <select id={ids.type} value={type} onChange={(e) => set({ type: e.target.value as ConditionType })} className={inputClass}>
          {types.map((value) => (
            <option key={value} value={value}>
              {CONDITION_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      {type === 'predicted' && (
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.direction}>Sens</FieldLabel>
          <select
            id={ids.direction}
            value={draft.direction}
            onChange={(e) => set({ direction: e.target.value as PredictedDirection })}
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
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.key}>Mesure</FieldLabel>
          <input id={ids.key} value={draft.key} onChange={(e) => set({ key: e.target.value })} className={inputClass} />
        </div>
      )}
      {type !== 'offline' && (
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.threshold}>
            {type === 'outside' ? 'Minimum' : type === 'battery_below' ? 'Seuil (%)' : 'Seuil'}
          </FieldLabel>
          <input
            id={ids.threshold}
            inputMode="decimal"
            value={draft.threshold}
            onChange={(e) => set({ threshold: e.target.value })}
            className={inputClass}
          />
        </div>
      )}
      {type === 'predicted' && (
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.within}>Prévu dans les (min)</FieldLabel>
          <input
            id={ids.within}
            inputMode="numeric"
            value={draft.within}
            aria-describedby={ids.withinHint}
            onChange={(e) => set({ within: e.target.value })}
            className={inputClass}
          />
          <p id={ids.withinHint} className="text-xs text-slate-400">
            {`De 15 à ${MAX_PREDICTION_MINUTES}\u00A0minutes\u202F: Vigie prévient dès que la prévision franchit le seuil dans ce délai.`}
          </p>
        </div>
      )}
      {type === 'outside' && (
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.max}>Maximum</FieldLabel>
          <input id={ids.max} inputMode="decimal" value={draft.max} onChange={(e) => set({ max: e.target.value })} className={inputClass} />
        </div>
      )}
    </>
  );
}

/** When and how loudly the rule alerts, each a cell of a two-column grid: delay, hysteresis, schedule, gravity. */
export function AlertingFields({ draft, onChange }: FieldsProps) {
  const ids = { delay: useId(), hysteresis: useId(), schedule: useId(), severity: useId() };
  const set = (changes: Partial<RuleDraft>) => onChange({ ...draft, ...changes });
  return (
    <>
      <div className={fieldClass}>
        <FieldLabel htmlFor={ids.delay}>Délai avant l’alerte (min)</FieldLabel>
        <input
          id={ids.delay}
          inputMode="decimal"
          value={draft.delay}
          onChange={(e) => set({ delay: e.target.value })}
          className={inputClass}
        />
      </div>
      <div className={fieldClass}>
        <FieldLabel htmlFor={ids.hysteresis}>Hystérésis</FieldLabel>
        <input
          id={ids.hysteresis}
          inputMode="decimal"
          value={draft.hysteresis}
          onChange={(e) => set({ hysteresis: e.target.value })}
          className={inputClass}
        />
      </div>
      <div className={fieldClass}>
        <FieldLabel htmlFor={ids.schedule}>Planning</FieldLabel>
        <select
          id={ids.schedule}
          value={draft.schedule}
          onChange={(e) => set({ schedule: e.target.value as RuleSchedule })}
          className={inputClass}
        >
          {(Object.keys(SCHEDULE_LABELS) as RuleSchedule[]).map((value) => (
            <option key={value} value={value}>
              {SCHEDULE_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <div className={fieldClass}>
        <FieldLabel htmlFor={ids.severity}>Gravité</FieldLabel>
        <select
          id={ids.severity}
          value={draft.severity}
          onChange={(e) => set({ severity: e.target.value as Severity })}
          className={inputClass}
        >
          {(Object.keys(SEVERITY_LABELS) as Severity[]).map((value) => (
            <option key={value} value={value}>
              {SEVERITY_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
