import { z } from 'zod';
import { nameSchema, uuidSchema } from './common.ts';
import { taskCountsSchema } from './tasks.ts';

/**
 * docs/api.md, Régions et portées. A region groups sites (a district of a chain); a member's scope
 * is the whole organization (`null`) or some sites and regions: a site moved into one of the
 * regions joins the scope at once.
 */
export const regionSchema = z.object({ id: uuidSchema, name: z.string() });
export type Region = z.infer<typeof regionSchema>;

export const regionsResponseSchema = z.object({ regions: z.array(regionSchema) });
export type RegionsResponse = z.infer<typeof regionsResponseSchema>;
export const regionResponseSchema = z.object({ region: regionSchema });
export type RegionResponse = z.infer<typeof regionResponseSchema>;

export const regionRequestSchema = z.strictObject({ name: nameSchema });
export type RegionRequest = z.infer<typeof regionRequestSchema>;

const idsSchema = (what: string) =>
  z.array(uuidSchema, { error: `${what} : une liste d’identifiants est attendue.` }).max(1000, { error: `${what} : 1 000 au plus.` });

/** Some sites and regions of the organization; at least one of them. */
export const memberScopeSchema = z
  .strictObject({
    siteIds: idsSchema('siteIds').default([]),
    regionIds: idsSchema('regionIds').default([]),
  })
  .refine((scope) => scope.siteIds.length + scope.regionIds.length > 0, {
    error: 'Une portée nomme au moins un site ou une région (ou vaut null : toute l’organisation).',
  });
export type MemberScope = z.infer<typeof memberScopeSchema>;

/** `null`: the whole organization (the default). */
export const scopeFieldSchema = memberScopeSchema.nullable();

/** docs/api.md, Vue du réseau: one line per site of the person's scope. */
export const overviewSiteSchema = z.object({
  siteId: uuidSchema,
  name: z.string(),
  regionId: uuidSchema.nullable(),
  sensors: z.number().int(),
  offline: z.number().int(),
  activeAlerts: z.number().int(),
  lowBattery: z.number().int(),
  /** Share of this month so far within limits (0 to 1), or null when nothing was measured. */
  compliance: z.number().nullable(),
  /**
   * The food-safety plan this month so far (docs/api.md, Plan de maîtrise sanitaire): tasks due
   * (their due time passed), done in their window, late, missed, and answered out of their limits.
   */
  tasks: taskCountsSchema.optional(),
});
export type OverviewSite = z.infer<typeof overviewSiteSchema>;
export const overviewResponseSchema = z.object({ sites: z.array(overviewSiteSchema) });
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;
