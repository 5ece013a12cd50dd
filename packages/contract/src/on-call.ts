import { z } from 'zod';
import { isoDateTimeSchema, uuidSchema } from './common.ts';
import { timeOfDaySchema } from './sites.ts';
import { ON_CALL_DAYS } from './values/on-call.ts';

export * from './values/on-call.ts';

/**
 * Phones, on-call rotas (« astreinte ») and the escalation ladder (docs/api.md, Astreinte, SMS et
 * appels): who is woken for a critical alert at night, how, and in which order.
 */

/** A person's phone: E.164 once read, and whether a code sent to it was given back. */
export const phoneSchema = z.object({
  /** E.164: `+33612345678`. */
  number: z.string(),
  /** The same, written as people read it (`+33 6 12 34 56 78`). */
  display: z.string(),
  verified: z.boolean(),
  /** When the number may be texted and called: set once the code was confirmed. */
  verifiedAt: isoDateTimeSchema.nullable(),
});
export type Phone = z.infer<typeof phoneSchema>;

/** A person's own notification settings. `quietHours`: warnings are not pushed then (critical alerts always are). */
export const quietHoursSchema = z.strictObject({ from: timeOfDaySchema, to: timeOfDaySchema }).refine((hours) => hours.from !== hours.to, {
  error: 'Les heures calmes ne peuvent pas commencer et finir à la même heure.',
});
export type QuietHours = z.infer<typeof quietHoursSchema>;

export const myPhoneResponseSchema = z.object({
  phone: phoneSchema.nullable(),
  quietHours: quietHoursSchema.nullable(),
  /** What the server can do: send SMS, place calls (a provider is configured). */
  channels: z.object({ sms: z.boolean(), call: z.boolean() }),
});
export type MyPhoneResponse = z.infer<typeof myPhoneResponseSchema>;

export const setPhoneRequestSchema = z.strictObject({
  phone: z
    .string({ error: 'Le numéro de téléphone est attendu.' })
    .trim()
    .min(4, { error: 'Le numéro de téléphone est trop court.' })
    .max(32, { error: 'Le numéro de téléphone est trop long.' }),
});
export type SetPhoneRequest = z.infer<typeof setPhoneRequestSchema>;

export const verifyPhoneRequestSchema = z.strictObject({
  code: z
    .string({ error: 'Le code reçu par SMS est attendu.' })
    .trim()
    .regex(/^\d{6}$/, { error: 'Le code reçu par SMS compte 6 chiffres.' }),
});
export type VerifyPhoneRequest = z.infer<typeof verifyPhoneRequestSchema>;

export const quietHoursRequestSchema = z.strictObject({ quietHours: quietHoursSchema.nullable() });
export type QuietHoursRequest = z.infer<typeof quietHoursRequestSchema>;

/**
 * One slot of a rota: on these days, from `from` to `to` in the site's time zone (an end earlier
 * than the start runs into the next morning; equal, the whole day), these people in this order.
 */
export const onCallSlotSchema = z.strictObject({
  name: z.string().trim().max(60, { error: 'Le nom d’un créneau compte 60 caractères au plus.' }).default(''),
  days: z
    .array(z.enum(ON_CALL_DAYS, { error: 'Jour inconnu : mon, tue, wed, thu, fri, sat, sun ou holiday.' }))
    .min(1, { error: 'Un créneau d’astreinte couvre au moins un jour.' })
    .max(8),
  from: timeOfDaySchema.refine((time) => time !== '24:00', { error: 'Un créneau ne peut pas commencer à 24:00.' }),
  to: timeOfDaySchema,
  people: z
    .array(uuidSchema)
    .min(1, { error: 'Un créneau d’astreinte nomme au moins une personne.' })
    .max(10, { error: 'Dix personnes au plus par créneau.' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'Une personne figure deux fois dans le même créneau.' }),
});
export type OnCallSlot = z.infer<typeof onCallSlotSchema>;

const minutes = (what: string, max: number) =>
  z
    .number({ error: `${what} : un nombre de minutes est attendu.` })
    .int({ error: `${what} : un nombre entier de minutes est attendu.` })
    .min(0, { error: `${what} : 0 minute au moins.` })
    .max(max, { error: `${what} : ${max} minutes au plus.` });

/**
 * The ladder for each person on call, from when the alert opened (or the person's turn came): a
 * push at once, an SMS after `smsAfterMinutes`, a call after `callAfterMinutes`; the next person's
 * turn comes after `nextAfterMinutes`. It stops as soon as someone takes the alert into account.
 */
export const ladderSchema = z
  .strictObject({
    smsAfterMinutes: minutes('SMS', 120),
    callAfterMinutes: minutes('Appel', 240),
    nextAfterMinutes: minutes('Personne suivante', 240).refine((value) => value >= 1, {
      error: 'Personne suivante : 1 minute au moins.',
    }),
  })
  .refine((ladder) => ladder.callAfterMinutes >= ladder.smsAfterMinutes, { error: 'L’appel vient après le SMS.' })
  .refine((ladder) => ladder.nextAfterMinutes > ladder.callAfterMinutes, {
    error: 'La personne suivante est prévenue après l’appel à la précédente.',
  });
export type Ladder = z.infer<typeof ladderSchema>;

export const DEFAULT_LADDER: Ladder = { smsAfterMinutes: 5, callAfterMinutes: 10, nextAfterMinutes: 15 };

export const updateOnCallRequestSchema = z.strictObject({
  slots: z.array(onCallSlotSchema).max(20, { error: 'Vingt créneaux au plus par site.' }),
  ladder: ladderSchema,
});
export type UpdateOnCallRequest = z.infer<typeof updateOnCallRequestSchema>;

export const onCallPersonSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  /** The verified phone in E.164, or null: this person is only pushed to. */
  phone: z.string().nullable(),
});
export type OnCallPerson = z.infer<typeof onCallPersonSchema>;

export const onCallResponseSchema = z.object({
  onCall: z.object({
    slots: z.array(onCallSlotSchema),
    ladder: ladderSchema,
    updatedAt: isoDateTimeSchema.nullable(),
  }),
  /** Who would be woken now, in order (empty outside every slot), and by which slot. */
  now: z.object({ slot: z.number().int().nullable(), people: z.array(onCallPersonSchema), holiday: z.string().nullable() }),
});
export type OnCallResponse = z.infer<typeof onCallResponseSchema>;

/** What a voice provider posts back when the person presses a key (Twilio `Digits`, Vonage `dtmf.digits`). */
export const voiceAnswerParamsSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_.-]{20,100}$/, { error: 'Lien d’appel invalide.' }),
});

/**
 * The daily digest (docs/api.md, Résumé quotidien): each morning from 7 h (the shops' clock), an
 * e-mail of yesterday's alerts in one's shops, for whoever asks for it.
 */
export const DIGEST_HOUR = 7;
export const digestSchema = z.object({
  enabled: z.boolean(),
  /** The local hour it leaves at, on the clock of the person's shops. */
  hour: z.number().int(),
});
export type Digest = z.infer<typeof digestSchema>;
export const digestResponseSchema = z.object({ digest: digestSchema });
export type DigestResponse = z.infer<typeof digestResponseSchema>;
export const digestRequestSchema = z.strictObject({ enabled: z.boolean({ error: 'enabled doit valoir true ou false.' }) });
export type DigestRequest = z.infer<typeof digestRequestSchema>;
