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
    label: 'Froid positif – denrées très périssables\u00a0: ≤ +4 °C',
    source: 'Arrêté du 21 décembre 2009, annexe I',
    condition: { type: 'above', key: 'temperature', threshold: 4 },
  },
  chilled_perishable: {
    label: 'Froid positif – denrées périssables\u00a0: ≤ +8 °C',
    source: 'Arrêté du 21 décembre 2009, annexe I',
    condition: { type: 'above', key: 'temperature', threshold: 8 },
  },
  frozen: {
    label: 'Surgelés\u00a0: ≤ −18 °C',
    source: 'Arrêté du 21 décembre 2009, annexe I',
    condition: { type: 'above', key: 'temperature', threshold: -18 },
  },
} as const satisfies Record<string, { label: string; source: string; condition: PresetCondition }>;
export type RulePreset = keyof typeof RULE_PRESETS;

/** What an installed device watches, and the alert rule created with it (docs/api.md, Rattachement des appareils d'usine, `preset`). */
export interface InstallUse {
  label: string;
  /** One line for the person installing it: what the rule does. */
  hint: string;
  /** The rule created with the device; null: none. */
  rule: {
    name: string;
    /** A preset of `RULE_PRESETS`, or a condition of its own. */
    preset?: RulePreset;
    condition?: { type: 'above'; key: string; threshold: number } | { type: 'offline' };
    delaySeconds?: number;
    hysteresis?: number;
    severity?: 'critical' | 'warning';
  } | null;
}

/**
 * The uses offered when a person installs a sensor: chilled and frozen food with the regulation's
 * limits, a door left open, a footfall counter that falls silent. The cold rules wait before they
 * alert (15 min for chilled food, 30 min for a freezer and its defrosts) and end only once the
 * temperature is back below the limit by a margin: a door opened for a customer or a delivery
 * neither alerts nor makes the alert open and close again and again.
 */
export const INSTALL_USES = {
  chilled_very_perishable: {
    label: 'Vitrine réfrigérée – denrées très périssables',
    hint: 'Alerte au-dessus de +4 °C pendant plus de 15 min (arrêté du 21 décembre 2009).',
    rule: { name: 'Froid positif ≤ +4 °C', preset: 'chilled_very_perishable', delaySeconds: 900, hysteresis: 0.5 },
  },
  chilled_perishable: {
    label: 'Meuble réfrigéré – denrées périssables',
    hint: 'Alerte au-dessus de +8 °C pendant plus de 15 min (arrêté du 21 décembre 2009).',
    rule: { name: 'Froid positif ≤ +8 °C', preset: 'chilled_perishable', delaySeconds: 900, hysteresis: 0.5 },
  },
  frozen: {
    label: 'Congélateur – surgelés',
    hint: 'Alerte au-dessus de −18 °C pendant plus de 30 min (arrêté du 21 décembre 2009).',
    rule: { name: 'Surgelés ≤ −18 °C', preset: 'frozen', delaySeconds: 1800, hysteresis: 1 },
  },
  door: {
    label: 'Porte',
    hint: 'Alerte quand la porte reste ouverte plus de 5 min.',
    rule: {
      name: 'Porte ouverte plus de 5 min',
      condition: { type: 'above', key: 'open', threshold: 0.5 },
      delaySeconds: 300,
      severity: 'warning',
    },
  },
  footfall: {
    label: 'Compteur de passage',
    hint: 'Alerte quand le compteur ne transmet plus.',
    rule: { name: 'Compteur de passage muet', condition: { type: 'offline' }, severity: 'warning' },
  },
  none: {
    label: 'Autre mesure, sans alerte',
    hint: 'Aucune règle d’alerte : vous pourrez en ajouter une depuis la page du capteur.',
    rule: null,
  },
} as const satisfies Record<string, InstallUse>;
export type InstallUseKey = keyof typeof INSTALL_USES;

/**
 * The alert rule a sensor installed for this use comes with, as the alert rules endpoint takes it;
 * null when the use has none. A door rule watches the contact's measure the device reports:
 * `open` in Vigie's own protocol, `door` from a LoRaWAN decoder (`measures`, when known).
 */
export function installUseRule(use: InstallUseKey, sensorId: string, measures: readonly string[] = []) {
  const rule: InstallUse['rule'] = INSTALL_USES[use].rule;
  if (!rule) return null;
  const condition = 'condition' in rule ? rule.condition : undefined;
  if (condition?.type === 'above' && condition.key === 'open' && measures.includes('door')) {
    return { ...rule, condition: { ...condition, key: 'door' }, sensorId };
  }
  return { ...rule, sensorId };
}
