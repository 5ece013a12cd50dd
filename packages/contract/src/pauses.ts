import { z } from 'zod';
import { isoDateTimeSchema, uuidSchema } from './common.ts';
import { hasOverloadedCharacter, OVERLOADED_CHARACTER_MESSAGE } from './text.ts';

/** A pause lasts 24 hours at most; it is renewed by pausing again. */
export const PAUSE_MAX_MINUTES = 24 * 60;
export const PAUSE_MIN_MINUTES = 5;

/**
 * `endpoints.pauses.create`: « Mettre en pause » a sensor or a whole site for planned work
 * (cleaning, restocking, a planned defrost, a unit out of service). The rules keep evaluating; the
 * notifications of its alerts wait until the pause ends, and an alert still open then notifies at
 * once. Pausing again what is paused replaces the pause (a renewal).
 */
export const createPauseRequestSchema = z
  .strictObject({
    sensorId: uuidSchema.optional(),
    siteId: uuidSchema.optional(),
    reason: z
      .string({ error: 'La raison de la pause est obligatoire.' })
      .trim()
      .min(1, { error: 'La raison de la pause est obligatoire (nettoyage, réassort, dégivrage prévu…).' })
      .max(200, { error: 'La raison compte 200 caractères au plus.' })
      .refine((value) => !hasOverloadedCharacter(value), { error: OVERLOADED_CHARACTER_MESSAGE }),
    minutes: z
      .number({ error: 'La durée de la pause est obligatoire, en minutes.' })
      .int({ error: 'La durée de la pause est un nombre entier de minutes.' })
      .min(PAUSE_MIN_MINUTES, { error: `Une pause dure ${PAUSE_MIN_MINUTES} minutes au moins.` })
      .max(PAUSE_MAX_MINUTES, { error: 'Une pause dure 24 heures au plus : renouvelez-la si les travaux durent.' }),
  })
  .refine((body) => (body.sensorId === undefined) !== (body.siteId === undefined), {
    error: 'Mettez en pause un capteur (sensorId) ou un magasin (siteId), l’un des deux.',
  });
export type CreatePauseRequest = z.input<typeof createPauseRequestSchema>;

export const pauseSchema = z.object({
  id: uuidSchema,
  /** The sensor paused, or null when a whole site is. */
  sensorId: uuidSchema.nullable(),
  /** The site paused, or the sensor's site. */
  siteId: uuidSchema.nullable(),
  reason: z.string(),
  from: isoDateTimeSchema,
  until: isoDateTimeSchema,
  /** Who paused it (null once that account is gone). */
  createdBy: uuidSchema.nullable(),
});
export type Pause = z.infer<typeof pauseSchema>;

export const pauseResponseSchema = z.object({ pause: pauseSchema });
export type PauseResponse = z.infer<typeof pauseResponseSchema>;
/** A period asked of the pauses is three months at most. */
export const PAUSE_PERIOD_MAX_DAYS = 92;

const periodBound = (which: string) =>
  z.iso.datetime({ offset: true, error: `${which} de période doit être une date ISO 8601.` }).optional();
/** The end of the period asked: `to`, or now. */
const periodEnd = (to: string | undefined) => (to === undefined ? Date.now() : Date.parse(to));

/**
 * `endpoints.pauses.list`: without `from`, the pauses going on now; with `from` (and `to`, now by
 * default), those that overlapped [from, to), ended ones included, oldest first. `sensorId`: only
 * what held that sensor, its own pauses and those of its whole shop.
 */
export const pauseListQuerySchema = z
  .strictObject({ sensorId: uuidSchema.optional(), from: periodBound('Le début'), to: periodBound('La fin') })
  .refine((query) => query.to === undefined || query.from !== undefined, {
    error: 'Donnez le début de la période (from) avec sa fin (to).',
    path: ['from'],
  })
  .refine((query) => query.from === undefined || periodEnd(query.to) > Date.parse(query.from), {
    error: 'La fin de période doit suivre son début.',
    path: ['to'],
  })
  .refine((query) => query.from === undefined || periodEnd(query.to) - Date.parse(query.from) <= PAUSE_PERIOD_MAX_DAYS * 86_400_000, {
    error: `La période demandée compte ${PAUSE_PERIOD_MAX_DAYS} jours au plus.`,
    path: ['to'],
  });
export type PauseListQuery = z.infer<typeof pauseListQuerySchema>;

/** The pauses going on now (or those of the period asked), of the sensors and sites the caller sees. */
export const pauseListResponseSchema = z.object({ pauses: z.array(pauseSchema) });
export type PauseListResponse = z.infer<typeof pauseListResponseSchema>;
