import { z } from 'zod';
import { nameSchema, uuidSchema } from './common.ts';

export * from './values/sites.ts';

export const DEFAULT_TIMEZONE = 'Europe/Paris';

/** True when the runtime knows `name` as an IANA time zone (e.g. `Europe/Paris`). */
export function isKnownTimeZone(name: string): boolean {
  if (name.trim() === '' || name !== name.trim()) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timezoneSchema = z
  .string({ error: 'Le fuseau horaire doit être une chaîne de caractères.' })
  .max(64, { error: 'Fuseau horaire inconnu : indiquez un nom IANA, par exemple « Europe/Paris ».' })
  .refine(isKnownTimeZone, { error: 'Fuseau horaire inconnu : indiquez un nom IANA, par exemple « Europe/Paris ».' });

/** `HH:MM` on a 24-hour clock; `24:00` is allowed as the end of a day. */
export const timeOfDaySchema = z
  .string({ error: 'Une heure au format « HH:MM » est attendue.' })
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, { error: 'Une heure au format « HH:MM » est attendue (de 00:00 à 24:00).' });

/** Minutes since midnight of an `HH:MM` time. */
export function minutesOfDay(time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

/**
 * One opening window `["HH:MM", "HH:MM"]` in the site's time zone. An end earlier than the start
 * runs past midnight into the next day (a night shift `["22:00", "06:00"]`).
 */
export const openingWindowSchema = z
  .tuple([timeOfDaySchema, timeOfDaySchema], { error: 'Une plage d’ouverture est une paire d’heures, par exemple ["08:30", "19:00"].' })
  .refine(([start, end]) => start !== end, { error: 'Une plage d’ouverture ne peut pas commencer et finir à la même heure.' })
  .refine(([start]) => start !== '24:00', { error: 'Une plage d’ouverture ne peut pas commencer à 24:00.' });
export type OpeningWindow = z.infer<typeof openingWindowSchema>;

const dayWindowsSchema = z.array(openingWindowSchema).max(6, { error: 'Six plages d’ouverture au plus par jour.' });

/** Weekly opening hours: each day maps to its windows; a missing day is closed. */
export const openingHoursSchema = z.strictObject({
  mon: dayWindowsSchema.default([]),
  tue: dayWindowsSchema.default([]),
  wed: dayWindowsSchema.default([]),
  thu: dayWindowsSchema.default([]),
  fri: dayWindowsSchema.default([]),
  sat: dayWindowsSchema.default([]),
  sun: dayWindowsSchema.default([]),
});
export type OpeningHours = z.infer<typeof openingHoursSchema>;

/** A shop's usual hours, for a new site created without any. */
export const DEFAULT_OPENING_HOURS: OpeningHours = {
  mon: [['09:00', '19:00']],
  tue: [['09:00', '19:00']],
  wed: [['09:00', '19:00']],
  thu: [['09:00', '19:00']],
  fri: [['09:00', '19:00']],
  sat: [['09:00', '19:00']],
  sun: [],
};

export const siteSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  timezone: z.string(),
  openingHours: openingHoursSchema,
  /** The region the site belongs to (at most one), or null. */
  regionId: uuidSchema.nullable(),
});
export type Site = z.infer<typeof siteSchema>;

export const createSiteRequestSchema = z.strictObject({
  name: nameSchema,
  timezone: timezoneSchema.optional(),
  openingHours: openingHoursSchema.optional(),
  regionId: uuidSchema.nullable().optional(),
});
export type CreateSiteRequest = z.infer<typeof createSiteRequestSchema>;

export const updateSiteRequestSchema = createSiteRequestSchema
  .partial()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: 'Indiquez au moins un champ à modifier (name, timezone, openingHours ou regionId).',
  });
export type UpdateSiteRequest = z.infer<typeof updateSiteRequestSchema>;

export const siteListResponseSchema = z.object({ sites: z.array(siteSchema) });
export const siteResponseSchema = z.object({ site: siteSchema });
export type SiteListResponse = z.infer<typeof siteListResponseSchema>;
export type SiteResponse = z.infer<typeof siteResponseSchema>;
