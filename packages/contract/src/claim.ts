import { z } from 'zod';
import { nameSchema, uuidSchema } from './common.ts';
import { deviceKindSchema, emitterSchema, inactivityTimeoutSchema, sensorSchema } from './devices.ts';
import { INSTALL_USES, type InstallUseKey } from './presets.ts';
import { SERIAL_MAX_LENGTH } from './telemetry.ts';
import { normalizeClaimCode } from './claim-label.ts';

export { CLAIM_URI_PREFIX, claimUri, normalizeClaimCode, parseClaimUri } from './claim-label.ts';

export const CLAIM_CODE_MIN_LENGTH = 6;
export const CLAIM_CODE_MAX_LENGTH = 64;

export const serialSchema = z
  .string({ error: 'Le numéro de série est obligatoire.' })
  .trim()
  .min(1, { error: 'Le numéro de série est obligatoire.' })
  .max(SERIAL_MAX_LENGTH, { error: `Le numéro de série ne doit pas dépasser ${SERIAL_MAX_LENGTH} caractères.` });

export const claimCodeSchema = z
  .string({ error: 'Le code de l’étiquette est obligatoire.' })
  .transform(normalizeClaimCode)
  .pipe(
    z
      .string()
      .min(CLAIM_CODE_MIN_LENGTH, { error: `Le code de l’étiquette compte au moins ${CLAIM_CODE_MIN_LENGTH} caractères.` })
      .max(CLAIM_CODE_MAX_LENGTH, { error: `Le code de l’étiquette ne doit pas dépasser ${CLAIM_CODE_MAX_LENGTH} caractères.` })
      .regex(/^[0-9A-Z]+$/, { error: 'Le code de l’étiquette ne contient que des lettres et des chiffres.' }),
  );

export const installUseSchema = z.enum(Object.keys(INSTALL_USES) as [InstallUseKey, ...InstallUseKey[]], {
  error: `Usage inconnu : ${Object.keys(INSTALL_USES).join(', ')}.`,
});

/** `endpoints.devices.claim` (a signed-in person). */
export const claimRequestSchema = z.strictObject({
  serial: serialSchema,
  claimCode: claimCodeSchema,
  siteId: uuidSchema.optional(),
  name: nameSchema.optional(),
  /** What the device watches: its alert rule is created with it (sensors only). */
  preset: installUseSchema.optional(),
});
export type ClaimRequest = z.input<typeof claimRequestSchema>;

export const claimResponseSchema = z.union([z.object({ sensor: sensorSchema }), z.object({ emitter: emitterSchema })]);
export type ClaimResponse = z.infer<typeof claimResponseSchema>;

/** `endpoints.devices.claimCheck`: the label read at step 1, before the device's name, site and use are chosen. */
export const claimCheckRequestSchema = z.strictObject({
  serial: serialSchema,
  claimCode: claimCodeSchema,
});
export type ClaimCheckRequest = z.input<typeof claimCheckRequestSchema>;

/** The factory device the label names, as the maker's batch describes it (`model`: `null` when the batch gave none). */
export const claimCheckResponseSchema = z.object({
  device: z.object({ serial: z.string(), model: z.string().nullable(), kind: deviceKindSchema }),
});
export type ClaimCheckResponse = z.infer<typeof claimCheckResponseSchema>;

/** `endpoints.devices.provision` by a factory device, with the code of its label. */
export const claimProvisionRequestSchema = z.strictObject({
  serial: serialSchema,
  claimCode: claimCodeSchema,
  inactivityTimeoutSeconds: inactivityTimeoutSchema.optional(),
});
export type ClaimProvisionRequest = z.input<typeof claimProvisionRequestSchema>;

/** 202: nobody has claimed the device yet; it asks again later. */
export const provisionWaitingResponseSchema = z.object({ status: z.literal('waiting') });
export type ProvisionWaitingResponse = z.infer<typeof provisionWaitingResponseSchema>;

/** One line of a maker's batch (`serial;kind;model;claimCode`). */
export const factoryDeviceSchema = z.strictObject({
  serial: serialSchema,
  kind: deviceKindSchema,
  model: z
    .string({ error: 'Le modèle doit être une chaîne de caractères.' })
    .trim()
    .max(64, { error: 'Le modèle ne doit pas dépasser 64 caractères.' })
    .optional(),
  claimCode: claimCodeSchema,
});
export type FactoryDevice = z.infer<typeof factoryDeviceSchema>;
