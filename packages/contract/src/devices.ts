import { z } from 'zod';
import { isoDateTimeSchema, nameSchema, uuidSchema } from './common.ts';

export * from './values/devices.ts';

/** Transmitters (émetteurs) and sensors (capteurs). */
export const DEVICE_KINDS = ['emitter', 'sensor'] as const;
export const deviceKindSchema = z.enum(DEVICE_KINDS, { error: 'Le type doit être « emitter » ou « sensor ».' });
export type DeviceKind = z.infer<typeof deviceKindSchema>;

/** `never`: nothing received yet; `offline`: silent for longer than its inactivity timeout. */
export const deviceStatusSchema = z.enum(['online', 'offline', 'never']);
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;

export const latestValueSchema = z.object({ value: z.number(), ts: isoDateTimeSchema });
export type LatestValue = z.infer<typeof latestValueSchema>;

export const INACTIVITY_TIMEOUT_MIN_SECONDS = 30;
export const INACTIVITY_TIMEOUT_MAX_SECONDS = 7 * 24 * 3600;

/** Fields shared by transmitters (émetteurs) and sensors (capteurs). */
export const deviceSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
  serial: z.string().nullable(),
  model: z.string().nullable(),
  status: deviceStatusSchema,
  lastSeenAt: isoDateTimeSchema.nullable(),
  /** Newest value of each measured key, e.g. `{temperature: {value: 4.2, ts}}`. */
  latest: z.record(z.string(), latestValueSchema),
  /** Battery level in percent, null until the device reports one. */
  battery: z.number().nullable(),
  inactivityTimeoutSeconds: z.number().int(),
  /** The site (magasin) the device is in. */
  siteId: uuidSchema,
});

export const emitterSchema = deviceSchema;
export type Emitter = z.infer<typeof emitterSchema>;

export const sensorSchema = deviceSchema.extend({
  /** The transmitter the sensor reports through, if any. */
  emitterId: uuidSchema.nullable(),
});
export type Sensor = z.infer<typeof sensorSchema>;

export const inactivityTimeoutSchema = z
  .number({ error: 'Le délai d’inactivité doit être un nombre de secondes.' })
  .int({ error: 'Le délai d’inactivité doit être un nombre entier de secondes.' })
  .min(INACTIVITY_TIMEOUT_MIN_SECONDS, { error: `Le délai d’inactivité doit être d’au moins ${INACTIVITY_TIMEOUT_MIN_SECONDS} s.` })
  .max(INACTIVITY_TIMEOUT_MAX_SECONDS, { error: 'Le délai d’inactivité ne doit pas dépasser 7 jours.' });

export const createDeviceRequestSchema = z.strictObject({ name: nameSchema });
export type CreateDeviceRequest = z.infer<typeof createDeviceRequestSchema>;

export const updateDeviceRequestSchema = z
  .strictObject({
    name: nameSchema.optional(),
    inactivityTimeoutSeconds: inactivityTimeoutSchema.optional(),
    siteId: uuidSchema.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: 'Indiquez au moins un champ à modifier (name, inactivityTimeoutSeconds ou siteId).',
  });
export type UpdateDeviceRequest = z.infer<typeof updateDeviceRequestSchema>;

export const emitterListResponseSchema = z.object({ emitters: z.array(emitterSchema) });
export const emitterResponseSchema = z.object({ emitter: emitterSchema });
export const sensorListResponseSchema = z.object({ sensors: z.array(sensorSchema) });
export const sensorResponseSchema = z.object({ sensor: sensorSchema });

export type EmitterListResponse = z.infer<typeof emitterListResponseSchema>;
export type EmitterResponse = z.infer<typeof emitterResponseSchema>;
export type SensorListResponse = z.infer<typeof sensorListResponseSchema>;

/**
 * Optional parameters of `endpoints.emitter.list` and `endpoints.sensor.list` for large fleets. Without any,
 * the list is the whole organization's, exactly as the seed contract says; with one or more, the
 * answer adds `total` (devices matching, all pages) and `nextCursor` (null on the last page).
 */
export const deviceListQuerySchema = z.object({
  q: z.string().trim().max(100, 'Recherche trop longue : 100 caractères au plus.').optional(),
  siteId: uuidSchema.optional(),
  status: deviceStatusSchema.optional(),
  limit: z.coerce
    .number({ error: 'limit doit être un nombre entier.' })
    .int('limit doit être un nombre entier.')
    .min(1, 'limit doit valoir au moins 1.')
    .max(1000, 'limit vaut 1 000 au plus.')
    .optional(),
  cursor: z.string().max(200, 'Curseur invalide : reprenez la liste depuis le début.').optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;

/** What a page of a list adds to the seed envelope. */
export const devicePageFieldsSchema = z.object({ total: z.number().int().optional(), nextCursor: z.string().nullable().optional() });
export type SensorResponse = z.infer<typeof sensorResponseSchema>;

/** Days a deleted device stays in the trash (Corbeille), restorable with its history, before it is purged. */
export const TRASH_RETENTION_DAYS = 30;

/** A device in the trash: `endpoints.trash.list`, newest deletion first. */
export const trashedDeviceSchema = z.object({
  kind: deviceKindSchema,
  id: uuidSchema,
  name: z.string(),
  serial: z.string().nullable(),
  model: z.string().nullable(),
  deletedAt: isoDateTimeSchema,
  /** When the purge job erases it and its readings for good. */
  purgeAt: isoDateTimeSchema,
});
export type TrashedDevice = z.infer<typeof trashedDeviceSchema>;

export const trashListResponseSchema = z.object({ devices: z.array(trashedDeviceSchema) });
export type TrashListResponse = z.infer<typeof trashListResponseSchema>;
