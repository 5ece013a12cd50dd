import {
  type CreateRuleRequest,
  type Rule,
  type RuleCondition,
  RULE_PRESETS,
  type RulePreset,
  rulePresetSchema,
  type UpdateRuleRequest,
} from '@vigie/contract';
import { forbidden, notFound } from '../../errors.ts';
import type { AlertRuleDal, RuleRecord } from './alert-rule-dal.ts';
import type { RuleTemplateDal } from './rule-template-dal.ts';
import { loosening } from './rule-template-service.ts';

export const RULE_NOT_FOUND = 'Règle introuvable.';
const NOT_FOUND = RULE_NOT_FOUND;

/** A condition as text with its keys sorted, so that two equal conditions compare equal. */
const sameKeysOrder = (condition: object) =>
  JSON.stringify(Object.fromEntries(Object.entries(condition).sort(([a], [b]) => a.localeCompare(b))));

export function toRule(record: RuleRecord, templates?: ReadonlyMap<string, NonNullable<Rule['template']>>): Rule {
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
    template: record.templateId ? (templates?.get(record.templateId) ?? null) : null,
    ...(record.sensorNameContains.length > 0 ? { sensorNameContains: record.sensorNameContains } : {}),
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
  /** The organization's rule templates: a rule laid by a locked one is tightened, never loosened. */
  templates: RuleTemplateDal;
  /** Throws the 404 of a sensor the organization does not have. */
  assertSensor: (organizationId: string, sensorId: string) => Promise<void>;
  /** Throws the 404 of a site the organization does not have. */
  assertSite: (organizationId: string, siteId: string) => Promise<void>;
  /** Told after any change: caches drop the organization's rules; `stopped` rules close their alerts. */
  onChanged: (organizationId: string, change: { stopped?: RuleRecord }) => Promise<void>;
}) {
  const { dal } = deps;

  /** The rules as the API shows them, each with its template's name and lock. */
  async function shown(organizationId: string, records: RuleRecord[]): Promise<Rule[]> {
    if (!records.some((record) => record.templateId)) return records.map((record) => toRule(record));
    const templates = new Map(
      (await deps.templates.list(organizationId)).map((t) => [t.id, { id: t.id, name: t.name, locked: t.locked }] as const),
    );
    return records.map((record) => toRule(record, templates));
  }
  const one = async (organizationId: string, record: RuleRecord) => (await shown(organizationId, [record]))[0] as Rule;

  return {
    async list(organizationId: string, filters: { sensorId?: string | undefined; siteId?: string | undefined } = {}): Promise<Rule[]> {
      return shown(organizationId, await dal.list(organizationId, filters));
    },

    async get(organizationId: string, id: string): Promise<Rule> {
      const record = await dal.find(organizationId, id);
      if (!record) throw notFound(NOT_FOUND);
      return one(organizationId, record);
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
      return one(organizationId, record);
    },

    async update(organizationId: string, id: string, changes: UpdateRuleRequest): Promise<Rule> {
      const before = await dal.find(organizationId, id);
      if (!before) throw notFound(NOT_FOUND);
      const template = before.templateId ? await deps.templates.find(organizationId, before.templateId) : undefined;
      const why = template?.locked ? loosening(template, changes) : null;
      if (template && why) {
        throw forbidden(
          `Cette règle vient du modèle « ${template.name} », verrouillé pour toute l’organisation : ce magasin peut la resserrer, pas ${why}.`,
        );
      }
      // jsonb stores keys in its own order: compare contents, not key order.
      const conditionChanged = changes.condition !== undefined && sameKeysOrder(changes.condition) !== sameKeysOrder(before.condition);
      const record = await dal.update(organizationId, id, { ...changes, ...(conditionChanged ? { preset: null } : {}) });
      if (!record) throw notFound(NOT_FOUND);
      await deps.onChanged(organizationId, before.enabled && !record.enabled ? { stopped: record } : {});
      return one(organizationId, record);
    },

    /** Removes a rule; one laid by a template stays while the template aims at its site, unless `laid` (its site is going). */
    async remove(organizationId: string, id: string, options: { laid?: boolean } = {}): Promise<void> {
      const record = await dal.find(organizationId, id);
      if (record?.templateId && !options.laid) {
        const template = await deps.templates.find(organizationId, record.templateId);
        throw forbidden(
          `Cette règle vient du modèle « ${template?.name ?? 'supprimé'} » : retirez ce magasin du modèle${template?.locked ? '' : ', ou désactivez-la'}.`,
        );
      }
      if (!record || !(await dal.remove(organizationId, id))) throw notFound(NOT_FOUND);
      await deps.onChanged(organizationId, { stopped: record });
    },
  };
}

export type AlertRuleService = ReturnType<typeof createAlertRuleService>;
