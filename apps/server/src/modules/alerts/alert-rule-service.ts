import {
  type CreateRuleRequest,
  type Rule,
  type RuleCondition,
  RULE_PRESETS,
  type RulePreset,
  rulePresetSchema,
  type UpdateRuleRequest,
} from '@vigie/contract';
import { notFound } from '../../errors.ts';
import type { AlertRuleDal, RuleRecord } from './alert-rule-dal.ts';

export const RULE_NOT_FOUND = 'Règle introuvable.';
const NOT_FOUND = RULE_NOT_FOUND;

/** A condition as text with its keys sorted, so that two equal conditions compare equal. */
const sameKeysOrder = (condition: object) =>
  JSON.stringify(Object.fromEntries(Object.entries(condition).sort(([a], [b]) => a.localeCompare(b))));

export function toRule(record: RuleRecord): Rule {
  const preset = rulePresetSchema.safeParse(record.preset);
  return {
    id: record.id,
    name: record.name,
    enabled: record.enabled,
    sensorId: record.sensorId,
    siteId: record.siteId,
    condition: record.condition,
    delaySeconds: record.delaySeconds,
    hysteresis: record.hysteresis,
    schedule: record.schedule,
    severity: record.severity,
    preset: preset.success ? preset.data : null,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

/** The condition of a preset: the limit the regulation sets, never re-typed by hand. */
export function presetCondition(preset: RulePreset): RuleCondition {
  return { ...RULE_PRESETS[preset].condition };
}

/**
 * Alert rules of an organization. The sensor or site a rule aims at must belong to the same
 * organization (else 404, as if it did not exist). Every change is told to the engine, and a rule
 * disabled or deleted closes its active alerts.
 */
export function createAlertRuleService(deps: {
  dal: AlertRuleDal;
  /** Throws the 404 of a sensor the organization does not have. */
  assertSensor: (organizationId: string, sensorId: string) => Promise<void>;
  /** Throws the 404 of a site the organization does not have. */
  assertSite: (organizationId: string, siteId: string) => Promise<void>;
  /** Told after any change: caches drop the organization's rules; `stopped` rules close their alerts. */
  onChanged: (organizationId: string, change: { stopped?: RuleRecord }) => Promise<void>;
}) {
  const { dal } = deps;

  return {
    async list(organizationId: string, filters: { sensorId?: string | undefined; siteId?: string | undefined } = {}): Promise<Rule[]> {
      return (await dal.list(organizationId, filters)).map(toRule);
    },

    async get(organizationId: string, id: string): Promise<Rule> {
      const record = await dal.find(organizationId, id);
      if (!record) throw notFound(NOT_FOUND);
      return toRule(record);
    },

    async create(organizationId: string, input: CreateRuleRequest): Promise<Rule> {
      if (input.sensorId) await deps.assertSensor(organizationId, input.sensorId);
      if (input.siteId) await deps.assertSite(organizationId, input.siteId);
      const condition = input.condition ?? presetCondition(input.preset as RulePreset);
      const record = await dal.create(organizationId, {
        name: input.name,
        enabled: input.enabled ?? true,
        sensorId: input.sensorId ?? null,
        siteId: input.siteId ?? null,
        condition,
        delaySeconds: input.delaySeconds ?? 0,
        hysteresis: input.hysteresis ?? 0,
        schedule: input.schedule ?? 'always',
        severity: input.severity ?? 'critical',
        // A preset whose condition was replaced no longer describes the rule.
        preset: input.preset && !input.condition ? input.preset : null,
      });
      await deps.onChanged(organizationId, {});
      return toRule(record);
    },

    async update(organizationId: string, id: string, changes: UpdateRuleRequest): Promise<Rule> {
      const before = await dal.find(organizationId, id);
      if (!before) throw notFound(NOT_FOUND);
      // jsonb stores keys in its own order: compare contents, not key order.
      const conditionChanged = changes.condition !== undefined && sameKeysOrder(changes.condition) !== sameKeysOrder(before.condition);
      const record = await dal.update(organizationId, id, { ...changes, ...(conditionChanged ? { preset: null } : {}) });
      if (!record) throw notFound(NOT_FOUND);
      await deps.onChanged(organizationId, before.enabled && !record.enabled ? { stopped: record } : {});
      return toRule(record);
    },

    async remove(organizationId: string, id: string): Promise<void> {
      const record = await dal.find(organizationId, id);
      if (!record || !(await dal.remove(organizationId, id))) throw notFound(NOT_FOUND);
      await deps.onChanged(organizationId, { stopped: record });
    },
  };
}

export type AlertRuleService = ReturnType<typeof createAlertRuleService>;
