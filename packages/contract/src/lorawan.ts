import { z } from 'zod';
import { nameSchema, uuidSchema } from './common.ts';
import { sensorSchema } from './devices.ts';
import { installUseSchema } from './claim.ts';
import { PASTED_CODEC_STYLES } from './values/lorawan.ts';

export * from './values/lorawan.ts';

/**
 * The model of the transmitter Vigie makes of a LoRaWAN gateway that relayed a frame (its serial
 * is the gateway's EUI): its shop's « hors ligne » rule watches it, and a message calls it « Passerelle ».
 */
export const LORAWAN_GATEWAY_MODEL = 'Passerelle LoRaWAN';

/**
 * The network servers Vigie takes uplinks from: The Things Stack v3, ChirpStack v4, Actility
 * ThingPark, Orange Live Objects, Loriot and Helium (docs/api.md, LoRaWAN).
 */
export const INTEGRATION_TYPES = ['tts', 'chirpstack', 'thingpark', 'liveobjects', 'loriot', 'helium'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export const integrationTypeSchema = z.enum(INTEGRATION_TYPES, {
  error: 'Type d’intégration inconnu : « tts », « chirpstack », « thingpark », « liveobjects », « loriot » ou « helium » sont attendus.',
});

/** A LoRaWAN DevEUI: 16 hexadecimal digits, dashes, colons or spaces between pairs allowed, stored lower-case. */
export const devEuiSchema = z
  .string({ error: 'Le DevEUI est obligatoire.' })
  .transform((value) =>
    value
      .trim()
      .replace(/[\s:-]/g, '')
      .toLowerCase(),
  )
  .pipe(z.string().regex(/^[0-9a-f]{16}$/, { error: 'Le DevEUI compte 16 chiffres hexadécimaux (0-9, A-F).' }));

/**
 * The Things Stack's MQTT server of an application, for networks that prefer Vigie to connect to
 * them rather than be called: Vigie subscribes to `v3/{username}/devices/+/up`.
 */
export const mqttSettingsSchema = z.strictObject({
  /** `mqtts://eu1.cloud.thethings.network:8883` (TLS) or `mqtt://host:1883`. */
  server: z
    .string({ error: 'L’adresse du serveur MQTT est obligatoire.' })
    .trim()
    .max(300, { error: 'L’adresse du serveur MQTT compte 300 caractères au plus.' })
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return (
            (url.protocol === 'mqtt:' || url.protocol === 'mqtts:') && url.hostname !== '' && url.username === '' && url.password === ''
          );
        } catch {
          return false;
        }
      },
      { error: 'Adresse du serveur MQTT invalide : « mqtts://hôte:8883 » ou « mqtt://hôte:1883 » sont attendus.' },
    ),
  /** `{application}@{tenant}` (`mon-app@ttn` on The Things Network). */
  username: z
    .string({ error: 'Le nom d’utilisateur MQTT est obligatoire.' })
    .trim()
    .regex(/^[a-z0-9](?:[-]?[a-z0-9]){1,35}@[a-z0-9](?:[-]?[a-z0-9]){1,35}$/, {
      error: 'Le nom d’utilisateur MQTT est « application@tenant » (lettres minuscules, chiffres et tirets), « mon-app@ttn » par exemple.',
    }),
  /** An API key of the application with the right to read its traffic (never shown again). */
  password: z
    .string({ error: 'La clé d’API est obligatoire.' })
    .trim()
    .min(1, { error: 'La clé d’API est obligatoire.' })
    .max(500, { error: 'La clé d’API compte 500 caractères au plus.' }),
});
export type MqttSettings = z.input<typeof mqttSettingsSchema>;

/** `endpoints.lorawan.integrations.create`. */
export const createIntegrationRequestSchema = z
  .strictObject({
    type: integrationTypeSchema,
    name: nameSchema,
    /** The Things Stack only: Vigie connects to the application's MQTT server instead of being called. */
    mqtt: mqttSettingsSchema.optional(),
  })
  .refine((body) => body.mqtt === undefined || body.type === 'tts', {
    error: 'La connexion MQTT n’existe que pour The Things Stack ; les autres serveurs de réseau appellent Vigie par HTTP.',
    path: ['mqtt'],
  });
export type CreateIntegrationRequest = z.input<typeof createIntegrationRequestSchema>;

export const integrationSchema = z.object({
  id: uuidSchema,
  type: integrationTypeSchema,
  name: z.string(),
  /** The absolute address to paste in the network server. */
  url: z.string(),
  /** When the network server last sent anything accepted; null before. */
  lastEventAt: z.string().nullable(),
  /**
   * Through The Things Stack's MQTT server (never the key): `connecting` until the first
   * connection, `connected`, or `error` with the reason in French. Absent for a webhook integration.
   */
  mqtt: z
    .object({
      server: z.string(),
      username: z.string(),
      state: z.enum(['connecting', 'connected', 'error']),
      error: z.string().nullable(),
    })
    .nullable()
    .optional(),
});
export type Integration = z.infer<typeof integrationSchema>;

/** 201: the integration, with its secret, shown this once. */
export const createdIntegrationResponseSchema = z.object({ integration: integrationSchema.extend({ secret: z.string() }) });
export type CreatedIntegrationResponse = z.infer<typeof createdIntegrationResponseSchema>;
export const integrationListResponseSchema = z.object({ integrations: z.array(integrationSchema) });
export type IntegrationListResponse = z.infer<typeof integrationListResponseSchema>;

/**
 * Why an integration's message was refused or not stored, as its health lists it: `bad_secret`
 * (secret absent or wrong, answered 401), `malformed` (not JSON, not an object, a payload that is
 * not hexadecimal or base64, an event missing), `bad_dev_eui` (not 16 hexadecimal digits),
 * `unknown_device` (a DevEUI not registered: kept for adoption), `undecodable` (no codec read it).
 */
export const integrationRefusalReasonSchema = z.enum(['bad_secret', 'malformed', 'bad_dev_eui', 'unknown_device', 'undecodable']);
export type IntegrationRefusalReason = z.infer<typeof integrationRefusalReasonSchema>;

/** The network server's answer: what Vigie did with the message. */
export const integrationEventResponseSchema = z.object({
  /**
   * `stored` (its readings stored), `duplicate` (the same frame again, already stored: nothing more
   * stored, see docs/protocole-appareils.md), `unknown_device` (kept for adoption), `ignored` (an event with nothing to store, or a device in the trash), `undecoded`
   * (the codec could not read the frame: the device's page says why), `refused` (not decoded: the
   * organization's queue of pasted codecs was full, or its codec suspended; or a value out of its
   * measure's range: the device's page says why).
   */
  status: z.enum(['stored', 'duplicate', 'unknown_device', 'ignored', 'undecoded', 'refused']),
  /** Readings stored from this message. */
  readings: z.number().int(),
  /** Readings not stored because they already were (the same frame received again); only when some were. */
  duplicates: z.number().int().optional(),
  /**
   * Only on a message refused for its content (answered 202, `status: refused`, nothing stored):
   * why, as a code (`malformed`, `bad_dev_eui`) and in French.
   */
  reason: integrationRefusalReasonSchema.optional(),
  message: z.string().optional(),
});
export type IntegrationEventResponse = z.infer<typeof integrationEventResponseSchema>;

/** `endpoints.integrations.health`: the network server's messages over the last 24 hours. */
export const integrationHealthSchema = z.object({
  /** The last message received with the right secret; null before any. */
  lastMessageAt: z.string().nullable(),
  /** The last 24 hours, hour by hour, oldest first (24 entries, each hour's start): messages received, and those refused. */
  perHour: z.array(z.object({ hour: z.string(), messages: z.number().int(), refused: z.number().int() })),
  /** The last messages refused or not stored (50 at most), newest first. */
  refused: z.array(
    z.object({ at: z.string(), reason: integrationRefusalReasonSchema, message: z.string(), devEui: z.string().nullable() }),
  ),
});
export type IntegrationHealth = z.infer<typeof integrationHealthSchema>;
export const integrationHealthResponseSchema = z.object({ health: integrationHealthSchema });
export type IntegrationHealthResponse = z.infer<typeof integrationHealthResponseSchema>;

export const codecSchema = z.object({
  id: z.string(),
  vendor: z.string(),
  model: z.string(),
  measures: z.array(z.string()),
});
export type Codec = z.infer<typeof codecSchema>;
export const codecListResponseSchema = z.object({ codecs: z.array(codecSchema) });
export type CodecListResponse = z.infer<typeof codecListResponseSchema>;

/** `endpoints.lorawan.devices.register`. */
export const registerLorawanDeviceRequestSchema = z.strictObject({
  devEui: devEuiSchema,
  codec: z.string({ error: 'Le décodeur est obligatoire.' }).trim().min(1, { error: 'Le décodeur est obligatoire.' }).max(64),
  name: nameSchema.optional(),
  siteId: uuidSchema.optional(),
  /** What the sensor watches: its alert rule is created with it. */
  preset: installUseSchema.optional(),
});
export type RegisterLorawanDeviceRequest = z.input<typeof registerLorawanDeviceRequestSchema>;

/** A registered device's link to the network. */
export const lorawanDeviceSchema = z.object({
  devEui: z.string(),
  sensorId: uuidSchema,
  codec: z.string(),
  lastUplinkAt: z.string().nullable(),
  rssi: z.number().nullable(),
  snr: z.number().nullable(),
  gateway: z.string().nullable(),
  /** The last frame the codec could not read, in French; null when the last one was read. */
  lastError: z.string().nullable(),
});
export type LorawanDevice = z.infer<typeof lorawanDeviceSchema>;
export const lorawanDeviceListResponseSchema = z.object({ devices: z.array(lorawanDeviceSchema) });
export type LorawanDeviceListResponse = z.infer<typeof lorawanDeviceListResponseSchema>;

/** An uplink of a DevEUI nobody registered: « Nouveaux appareils détectés ». */
export const pendingLorawanDeviceSchema = z.object({
  devEui: z.string(),
  integrationId: uuidSchema,
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  uplinks: z.number().int(),
  /** The maker and model the network server knows (The Things Stack's `version_ids`), if any. */
  brand: z.string().nullable(),
  model: z.string().nullable(),
  /** The codec suggested from them, if any. */
  suggestedCodec: z.string().nullable(),
  fPort: z.number().int().nullable(),
  /** The last frame, in hexadecimal, to try a codec on. */
  payloadHex: z.string().nullable(),
});
export type PendingLorawanDevice = z.infer<typeof pendingLorawanDeviceSchema>;
export const pendingLorawanDeviceListResponseSchema = z.object({ devices: z.array(pendingLorawanDeviceSchema) });
export type PendingLorawanDeviceListResponse = z.infer<typeof pendingLorawanDeviceListResponseSchema>;

export const lorawanSensorResponseSchema = z.object({ sensor: sensorSchema });

export const integrationEventQuerySchema = z.object({
  /** ChirpStack's HTTP integration names the event in the query (`up`, `join`, `status`…); The Things Stack does not. */
  event: z.string().max(32).optional(),
});

export const devEuiParamsSchema = z.object({ devEui: devEuiSchema });

const hexPayloadSchema = z
  .string({ error: 'La trame d’essai est obligatoire, en hexadécimal.' })
  .transform((value) => value.replace(/[\s:-]/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .regex(/^([0-9a-f]{2}){1,242}$/, { error: 'La trame d’essai s’écrit en hexadécimal, deux chiffres par octet (242 octets au plus).' }),
  );

/** `endpoints.lorawan.testCodec`: a pasted codec (LoRa Alliance TS013, `decodeUplink(input)`) tried on a sample frame. */
export const testCodecRequestSchema = z.strictObject({
  source: z
    .string({ error: 'Le code du décodeur est obligatoire.' })
    .min(1, { error: 'Le code du décodeur est obligatoire.' })
    .max(64 * 1024, { error: 'Le décodeur dépasse 64 Kio.' }),
  payloadHex: hexPayloadSchema,
  fPort: z.number({ error: 'Le port LoRaWAN est un nombre de 1 à 223.' }).int().min(1).max(223).optional(),
});
export type TestCodecRequest = z.input<typeof testCodecRequestSchema>;

/** The style a pasted codec's source was recognised in; absent for a built-in codec or a source in none of them. */
const pastedStyleSchema = z.enum(PASTED_CODEC_STYLES).optional();
export const codecOutcomeSchema = z.union([
  z.object({
    ok: z.literal(true),
    readings: z.array(z.object({ ts: z.string().nullable(), values: z.record(z.string(), z.number()) })),
    warnings: z.array(z.string()),
    style: pastedStyleSchema,
  }),
  z.object({ ok: z.literal(false), error: z.string(), style: pastedStyleSchema }),
]);
export type CodecOutcome = z.infer<typeof codecOutcomeSchema>;
export const testCodecResponseSchema = z.object({ result: codecOutcomeSchema });

/** `endpoints.lorawan.saveCodec`: saved only once its sample frame decodes. */
export const saveCodecRequestSchema = testCodecRequestSchema.extend({ name: nameSchema });
export type SaveCodecRequest = z.input<typeof saveCodecRequestSchema>;
export const codecResponseSchema = z.object({ codec: codecSchema });
