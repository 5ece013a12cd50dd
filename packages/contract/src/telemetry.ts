import { z } from 'zod';
import { isoDateTimeSchema, nameSchema, uuidSchema } from './common.ts';
import { hasOverloadedCharacter, OVERLOADED_CHARACTER_MESSAGE } from './text.ts';
import { deviceKindSchema, emitterSchema, inactivityTimeoutSchema, latestValueSchema, sensorSchema } from './devices.ts';

export const installationKeyResponseSchema = z.object({ installationKey: z.string() });
export type InstallationKeyResponse = z.infer<typeof installationKeyResponseSchema>;

export const SERIAL_MAX_LENGTH = 64;

/** `endpoints.devices.protocol`: how a device reaches this server (public, no secret). */
export const protocolInfoSchema = z.object({
  /** Port of the embedded MQTT broker, or null when MQTT is disabled on this server. */
  mqttPort: z.number().int().nullable(),
  /** The path of `endpoints.devices.provision`. */
  provisionPath: z.string(),
  /** The path of `endpoints.devices.telemetry`. */
  telemetryPath: z.string(),
  telemetryTopic: z.literal('vigie/devices/{deviceId}/telemetry'),
  errorsTopic: z.literal('vigie/devices/{deviceId}/errors'),
});
export type ProtocolInfo = z.infer<typeof protocolInfoSchema>;

export const provisionRequestSchema = z.strictObject({
  installationKey: z
    .string({ error: "La clé d'installation est obligatoire." })
    .min(1, { error: "La clé d'installation est obligatoire." })
    .max(200),
  serial: z
    .string({ error: 'Le numéro de série est obligatoire.' })
    .trim()
    .min(1, { error: 'Le numéro de série est obligatoire.' })
    .max(SERIAL_MAX_LENGTH, { error: `Le numéro de série ne doit pas dépasser ${SERIAL_MAX_LENGTH} caractères.` }),
  kind: deviceKindSchema,
  name: nameSchema.optional(),
  model: z
    .string({ error: 'Le modèle doit être une chaîne de caractères.' })
    .trim()
    .max(64, { error: 'Le modèle ne doit pas dépasser 64 caractères.' })
    .optional(),
  /** The device's own silence limit, when it knows its reporting cadence (default 600 s). */
  inactivityTimeoutSeconds: inactivityTimeoutSchema.optional(),
  /** The site (magasin) by id or name; a new name creates the site. Default: the organization's first site. */
  site: z
    .string({ error: 'Le site doit être une chaîne de caractères (identifiant ou nom).' })
    .trim()
    .min(1, { error: 'Le site ne peut pas être vide.' })
    .max(100, { error: 'Le nom du site ne doit pas dépasser 100 caractères.' })
    .refine((value) => !hasOverloadedCharacter(value), { error: OVERLOADED_CHARACTER_MESSAGE })
    .optional(),
});
export type ProvisionRequest = z.infer<typeof provisionRequestSchema>;

export const provisionResponseSchema = z.object({ deviceId: uuidSchema, kind: deviceKindSchema, accessToken: z.string() });
export type ProvisionResponse = z.infer<typeof provisionResponseSchema>;

export const deviceTokenResponseSchema = z.object({ accessToken: z.string() });
export type DeviceTokenResponse = z.infer<typeof deviceTokenResponseSchema>;

/** 202: the readings stored (`accepted`), and those not stored because a reading of the same `id` already was (only when some were). */
export const telemetryResponseSchema = z.object({ accepted: z.number().int(), duplicates: z.number().int().optional() });
export type TelemetryResponse = z.infer<typeof telemetryResponseSchema>;

/** One reading as a device sends it (HTTP body or MQTT payload); see docs/protocole-appareils.md. */
export interface TelemetryReading {
  /** Epoch milliseconds or ISO 8601; default: when the server receives it. */
  ts?: number | string;
  /**
   * The device's id for this reading: a retry with the same id is stored once. A number must be
   * an integer within ±(2^53 − 1), which a JSON parser reads exactly; a larger one is sent as a string.
   */
  id?: string | number;
  /** Only from a transmitter: the serial or id of the sensor the reading is for. */
  sensor?: string;
  values?: Record<string, number | boolean>;
  [flatKey: string]: unknown;
}

export const MAX_READINGS_PER_MESSAGE = 1000;
export const MAX_VALUES_PER_READING = 32;
export const READING_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export const readingsQuerySchema = z.strictObject({
  key: z.string().regex(READING_KEY_PATTERN, { error: 'Mesure inconnue : une clé comme « temperature » est attendue.' }).optional(),
  from: z.iso.datetime({ offset: true, error: 'Le début de période doit être une date ISO 8601.' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'La fin de période doit être une date ISO 8601.' }).optional(),
  buckets: z.coerce
    .number({ error: 'Le nombre d’intervalles doit être un entier.' })
    .int({ error: 'Le nombre d’intervalles doit être un entier.' })
    .min(1, { error: 'Le nombre d’intervalles doit être compris entre 1 et 2 000.' })
    .max(2000, { error: 'Le nombre d’intervalles doit être compris entre 1 et 2 000.' })
    .optional(),
});
export type ReadingsQuery = z.infer<typeof readingsQuerySchema>;

export const readingBucketSchema = z.object({
  ts: isoDateTimeSchema,
  min: z.number(),
  avg: z.number(),
  max: z.number(),
  count: z.number().int(),
});
export type ReadingBucket = z.infer<typeof readingBucketSchema>;

export const readingsResponseSchema = z.object({
  key: z.string().nullable(),
  keys: z.array(z.string()),
  from: isoDateTimeSchema,
  to: isoDateTimeSchema,
  readings: z.array(readingBucketSchema),
});
export type ReadingsResponse = z.infer<typeof readingsResponseSchema>;

export const readingsExportQuerySchema = readingsQuerySchema.omit({ buckets: true });

/** Events of `endpoints.stream.open` (Server-Sent Events), for the signed-in user's organization only. */
export const readingEventSchema = z.object({
  deviceId: uuidSchema,
  kind: deviceKindSchema,
  lastSeenAt: isoDateTimeSchema,
  battery: z.number().nullable(),
  values: z.record(z.string(), latestValueSchema),
});
export type ReadingEvent = z.infer<typeof readingEventSchema>;

export const deviceEventSchema = z.union([
  z.object({ action: z.enum(['created', 'updated', 'status']), kind: z.literal('emitter'), device: emitterSchema }),
  z.object({ action: z.enum(['created', 'updated', 'status']), kind: z.literal('sensor'), device: sensorSchema }),
  z.object({ action: z.literal('deleted'), kind: deviceKindSchema, deviceId: uuidSchema }),
]);
export type DeviceEvent = z.infer<typeof deviceEventSchema>;
