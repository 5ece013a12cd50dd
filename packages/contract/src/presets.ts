/**
 * Rule presets, without zod so that the web app can import them alone (`@vigie/contract/presets`).
 */

/** The condition of a preset, as `ruleConditionSchema` reads it. */
export interface PresetCondition {
  type: 'above';
  key: string;
  threshold: number;
}

/**
 * French presets, each naming its source. The limits of chilled and frozen food in retail are those
 * of the arrêté du 21 décembre 2009 (annexe I): an alert opens above them.
 */
export const RULE_PRESETS = {
  chilled_very_perishable: {
    label: 'Froid positif – denrées très périssables : ≤ +4 °C',
    source: 'Arrêté du 21 décembre 2009, annexe I',
    condition: { type: 'above', key: 'temperature', threshold: 4 },
  },
  chilled_perishable: {
    label: 'Froid positif – denrées périssables : ≤ +8 °C',
    source: 'Arrêté du 21 décembre 2009, annexe I',
    condition: { type: 'above', key: 'temperature', threshold: 8 },
  },
  frozen: {
    label: 'Surgelés : ≤ −18 °C',
    source: 'Arrêté du 21 décembre 2009, annexe I',
    condition: { type: 'above', key: 'temperature', threshold: -18 },
  },
} as const satisfies Record<string, { label: string; source: string; condition: PresetCondition }>;
export type RulePreset = keyof typeof RULE_PRESETS;
