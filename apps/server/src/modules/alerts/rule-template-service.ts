import {
  type CreateRuleTemplateRequest,
  foldedName,
  type Rule,
  type RuleCondition,
  type RulePreset,
  rulePresetSchema,
  type RuleTemplate,
  type UpdateRuleRequest,
  type UpdateRuleTemplateRequest,
} from '@vigie/contract';
import { badRequest, notFound } from '../../errors.ts';
import type { AlertRuleDal, RuleInsert, RuleRecord } from './alert-rule-dal.ts';
import { presetCondition } from './alert-rule-service.ts';
import type { RuleTemplateDal, TemplateRecord } from './rule-template-dal.ts';

const NOT_FOUND = 'Modèle de règle introuvable.';

/** The sites a template applies to: its sites, its regions' sites, or every site when it names none. */
export function targetSites(
  template: Pick<TemplateRecord, 'siteIds' | 'regionIds'>,
  sites: readonly { id: string; regionId: string | null }[],
) {
  const every = template.siteIds.length === 0 && template.regionIds.length === 0;
  return sites.filter(
    (site) => every || template.siteIds.includes(site.id) || (site.regionId !== null && template.regionIds.includes(site.regionId)),
  );
}

/** The words once each, as typed first (« Crèmerie » and « cremerie » are one word). */
function distinctWords(words: readonly string[]): string[] {
  const seen = new Set<string>();
  return words.filter((word) => {
    const folded = foldedName(word);
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}

/** What a template's rule holds: the template's values, in its site. */
function ruleValues(template: TemplateRecord): Omit<RuleInsert, 'siteId' | 'sensorId'> {
  return {
    name: template.name,
    enabled: true,
    condition: template.condition,
    delaySeconds: template.delaySeconds,
    hysteresis: template.hysteresis,
    schedule: template.schedule,
    severity: template.severity,
    preset: template.preset,
    templateId: template.id,
    sensorNameContains: template.sensorNameContains,
  };
}

/**
 * Why a change would loosen a locked template's rule, or null when it only tightens it (or leaves
 * it): never looser than the template — a lower limit for « above », a narrower range, a shorter
 * delay, a gravity kept critical, a schedule kept « always », the rule kept on.
 */
export function loosening(template: TemplateRecord, changes: UpdateRuleRequest): string | null {
  if (changes.enabled === false) return 'la désactiver';
  if (changes.severity === 'warning' && template.severity === 'critical') return 'baisser sa gravité';
  if (changes.schedule !== undefined && changes.schedule !== 'always' && changes.schedule !== template.schedule)
    return 'réduire son planning';
  if (changes.delaySeconds !== undefined && changes.delaySeconds > template.delaySeconds) return 'allonger son délai';
  if (changes.hysteresis !== undefined && changes.hysteresis < template.hysteresis) return 'réduire son hystérésis';
  const next = changes.condition;
  if (!next) return null;
  const base: RuleCondition = template.condition;
  if (next.type !== base.type || ('key' in next && 'key' in base && next.key !== base.key)) return 'changer de condition';
  const why = 'relâcher sa limite';
  if ((next.type === 'above' || next.type === 'predicted_above') && 'threshold' in base && next.threshold > base.threshold) return why;
  if ((next.type === 'below' || next.type === 'predicted_below') && 'threshold' in base && next.threshold < base.threshold) return why;
  if (next.type === 'battery_below' && base.type === 'battery_below' && next.threshold < base.threshold) return why;
  if (next.type === 'outside' && base.type === 'outside' && (next.min < base.min || next.max > base.max)) return why;
  if (
    (next.type === 'predicted_above' || next.type === 'predicted_below') &&
    'withinMinutes' in base &&
    next.withinMinutes < base.withinMinutes
  ) {
    return 'raccourcir son horizon de prévision';
  }
  return null;
}

/**
 * Organization-wide rule templates (docs/api.md, Modèles de règles). A template lays one rule in
 * each site it aims at; `sync` keeps that true when sites come, go or change region, and a change
 * of the template rewrites every rule it laid.
 */
export function createRuleTemplateService(deps: {
  dal: RuleTemplateDal;
  rules: AlertRuleDal;
  /** The organization's sites with their regions, and its regions. */
  sites: (organizationId: string) => Promise<{ id: string; regionId: string | null }[]>;
  regions: (organizationId: string) => Promise<{ id: string }[]>;
  now: () => Date;
  /** Told after any change of rules: the engine reads them again; `stopped` rules close their alerts. */
  onChanged: (organizationId: string, stopped: RuleRecord[]) => Promise<void>;
  /** Told of a rule that now watches other units of its site: alerts of the sensors it left close. */
  onNarrowed: (rule: RuleRecord) => Promise<unknown>;
}) {
  const { dal } = deps;

  async function toTemplate(record: TemplateRecord): Promise<RuleTemplate> {
    const preset = rulePresetSchema.safeParse(record.preset);
    const applied = (await deps.rules.fromTemplates(record.organizationId))
      .filter((rule) => rule.templateId === record.id && rule.siteId !== null)
      .map((rule) => rule.siteId as string);
    return {
      id: record.id,
      name: record.name,
      condition: record.condition,
      delaySeconds: record.delaySeconds,
      hysteresis: record.hysteresis,
      schedule: record.schedule,
      severity: record.severity,
      preset: preset.success ? preset.data : null,
      locked: record.locked,
      siteIds: record.siteIds,
      regionIds: record.regionIds,
      sensorNameContains: record.sensorNameContains,
      appliedSiteIds: applied.sort(),
      createdAt: record.createdAt.toISOString(),
      updatedAt: record.updatedAt.toISOString(),
    };
  }

  async function checkTargets(organizationId: string, siteIds: readonly string[], regionIds: readonly string[]) {
    const sites = new Set((await deps.sites(organizationId)).map((site) => site.id));
    if (siteIds.some((id) => !sites.has(id))) throw badRequest('Un site du modèle n’existe pas dans l’organisation.');
    const regions = new Set((await deps.regions(organizationId)).map((region) => region.id));
    if (regionIds.some((id) => !regions.has(id))) throw badRequest('Une région du modèle n’existe pas dans l’organisation.');
  }

  /** Lays the missing rules and removes those of sites no longer aimed at, for every template of the organization. */
  async function sync(organizationId: string): Promise<void> {
    const templates = await dal.list(organizationId);
    const sites = await deps.sites(organizationId);
    const laid = await deps.rules.fromTemplates(organizationId);
    const stopped: RuleRecord[] = [];
    let changed = false;
    for (const template of templates) {
      const wanted = new Set(targetSites(template, sites).map((site) => site.id));
      const mine = laid.filter((rule) => rule.templateId === template.id);
      for (const siteId of wanted) {
        if (mine.some((rule) => rule.siteId === siteId)) continue;
        await deps.rules.createFromTemplate(organizationId, { ...ruleValues(template), siteId, sensorId: null });
        changed = true;
      }
      for (const rule of mine) {
        if (rule.siteId !== null && wanted.has(rule.siteId)) continue;
        if (await deps.rules.remove(organizationId, rule.id)) stopped.push(rule);
        changed = true;
      }
    }
    if (changed) await deps.onChanged(organizationId, stopped);
  }

  return {
    sync,

    async list(organizationId: string): Promise<RuleTemplate[]> {
      return Promise.all((await dal.list(organizationId)).map(toTemplate));
    },

    async create(organizationId: string, input: CreateRuleTemplateRequest): Promise<RuleTemplate> {
      const siteIds = [...new Set(input.siteIds ?? [])];
      const regionIds = [...new Set(input.regionIds ?? [])];
      await checkTargets(organizationId, siteIds, regionIds);
      const record = await dal.create(
        organizationId,
        {
          name: input.name,
          condition: input.condition ?? presetCondition(input.preset as RulePreset),
          delaySeconds: input.delaySeconds ?? 0,
          hysteresis: input.hysteresis ?? 0,
          schedule: input.schedule ?? 'always',
          severity: input.severity ?? 'critical',
          preset: input.preset && !input.condition ? input.preset : null,
          locked: input.locked ?? true,
          siteIds,
          regionIds,
          sensorNameContains: distinctWords(input.sensorNameContains ?? []),
        },
        deps.now(),
      );
      await sync(organizationId);
      return toTemplate(record);
    },

    async update(
      organizationId: string,
      id: string,
      changes: UpdateRuleTemplateRequest,
    ): Promise<{ before: RuleTemplate; after: RuleTemplate }> {
      const current = await dal.find(organizationId, id);
      if (!current) throw notFound(NOT_FOUND);
      const before = await toTemplate(current);
      const siteIds = changes.siteIds ? [...new Set(changes.siteIds)] : undefined;
      const regionIds = changes.regionIds ? [...new Set(changes.regionIds)] : undefined;
      await checkTargets(organizationId, siteIds ?? [], regionIds ?? []);
      const conditionChanged = changes.condition !== undefined && JSON.stringify(changes.condition) !== JSON.stringify(current.condition);
      const record = await dal.update(
        organizationId,
        id,
        {
          ...changes,
          siteIds,
          regionIds,
          sensorNameContains: changes.sensorNameContains ? distinctWords(changes.sensorNameContains) : undefined,
          ...(conditionChanged ? { preset: null } : {}),
        },
        deps.now(),
      );
      if (!record) throw notFound(NOT_FOUND);
      // Changing the template changes every rule it laid, the shops' tightenings included.
      const laid = await deps.rules.updateFromTemplate(organizationId, id, ruleValues(record));
      await deps.onChanged(organizationId, []);
      // Aimed at other units: the alerts of sensors it no longer watches close.
      if (changes.sensorNameContains && JSON.stringify(record.sensorNameContains) !== JSON.stringify(current.sensorNameContains)) {
        for (const rule of laid) await deps.onNarrowed(rule);
      }
      await sync(organizationId);
      return { before, after: await toTemplate(record) };
    },

    async remove(organizationId: string, id: string): Promise<RuleTemplate> {
      const current = await dal.find(organizationId, id);
      if (!current) throw notFound(NOT_FOUND);
      const removed = await toTemplate(current);
      const rules = (await deps.rules.fromTemplates(organizationId)).filter((rule) => rule.templateId === id);
      for (const rule of rules) await deps.rules.remove(organizationId, rule.id);
      await dal.remove(organizationId, id);
      await deps.onChanged(organizationId, rules);
      return removed;
    },

    /** What a rule shows of its template, by template id. */
    async templatesOf(organizationId: string): Promise<Map<string, NonNullable<Rule['template']>>> {
      return new Map((await dal.list(organizationId)).map((t) => [t.id, { id: t.id, name: t.name, locked: t.locked }]));
    },

    /** The template record of a rule, or undefined. */
    find: (organizationId: string, id: string) => dal.find(organizationId, id),
  };
}

export type RuleTemplateService = ReturnType<typeof createRuleTemplateService>;
