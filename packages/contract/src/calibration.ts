import { z } from 'zod';
import { isoDateTimeSchema, uuidSchema } from './common.ts';
import { hasOverloadedCharacter, OVERLOADED_CHARACTER_MESSAGE } from './text.ts';
import { CERTIFICATE_MAX_BYTES, CERTIFICATE_TYPES, MAX_CALIBRATION_OFFSET } from './values/calibration.ts';

export * from './values/calibration.ts';

/**
 * A sensor's verification register (docs/api.md, Vérifications des capteurs): each verification
 * against a reference instrument, its measured offset, its certificate and when the next one is due.
 * EN 12830 and Regulation (EC) 37/2005 ask that temperature instruments be verified and the proof kept.
 *
 * The offset is what the sensor reads above the reference (`+0.4`: it reads 0,4 °C too warm). From
 * `verifiedAt` until the next verification, the sensor's temperatures are stored corrected
 * (reading − offset); the CSV export also gives the raw value.
 */

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} doit être une chaîne de caractères.` })
    .trim()
    .min(1, { error: `${what} est obligatoire.` })
    .max(max, { error: `${what} compte ${max} caractères au plus.` })
    .refine((value) => !hasOverloadedCharacter(value), { error: OVERLOADED_CHARACTER_MESSAGE });

export const certificateUploadSchema = z.strictObject(
  {
    fileName: text('Le nom du fichier', 120),
    contentType: z.enum(CERTIFICATE_TYPES, { error: 'Le certificat doit être un PDF, une image PNG ou JPEG.' }),
    /** The file's bytes in base64. */
    data: z
      .string({ error: 'Le contenu du certificat (data) doit être en base64.' })
      .min(1, { error: 'Le certificat est vide.' })
      .max(Math.ceil(CERTIFICATE_MAX_BYTES / 3) * 4 + 4, { error: 'Le certificat dépasse 2 Mo.' })
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'Le contenu du certificat (data) doit être en base64.' }),
  },
  { error: 'Le certificat est attendu sous la forme {fileName, contentType, data}.' },
);
export type CertificateUpload = z.infer<typeof certificateUploadSchema>;

export const createCalibrationRequestSchema = z.strictObject({
  /** When the sensor was compared with the reference. */
  verifiedAt: isoDateTimeSchema,
  /** How: the method and the reference instrument (« Bain thermostaté, sonde étalon n° 1234 »). */
  method: text('La méthode', 200),
  /** What the sensor reads above the reference, in °C. */
  offset: z
    .number({ error: 'L’écart mesuré doit être un nombre (°C).' })
    .min(-MAX_CALIBRATION_OFFSET, {
      error: `L’écart mesuré doit être compris entre −${MAX_CALIBRATION_OFFSET} et +${MAX_CALIBRATION_OFFSET} °C.`,
    })
    .max(MAX_CALIBRATION_OFFSET, {
      error: `L’écart mesuré doit être compris entre −${MAX_CALIBRATION_OFFSET} et +${MAX_CALIBRATION_OFFSET} °C.`,
    }),
  /** When the next verification is due (a date after `verifiedAt`). */
  nextDueAt: isoDateTimeSchema.optional(),
  note: text('La remarque', 500).optional(),
  certificate: certificateUploadSchema.optional(),
});
export type CreateCalibrationRequest = z.infer<typeof createCalibrationRequestSchema>;

export const certificateSchema = z.object({
  fileName: z.string(),
  contentType: z.enum(CERTIFICATE_TYPES),
  size: z.number().int(),
  /** SHA-256 of the file's bytes, in hexadecimal. */
  sha256: z.string(),
});
export type Certificate = z.infer<typeof certificateSchema>;

export const calibrationSchema = z.object({
  id: uuidSchema,
  sensorId: uuidSchema,
  verifiedAt: isoDateTimeSchema,
  method: z.string(),
  offset: z.number(),
  nextDueAt: isoDateTimeSchema.nullable(),
  note: z.string().nullable(),
  certificate: certificateSchema.nullable(),
  by: z.object({ id: uuidSchema.nullable(), name: z.string() }),
  createdAt: isoDateTimeSchema,
  /**
   * When its offset starts correcting the temperatures: `verifiedAt`, or the end of the period of
   * its shop that a signed report covered when it was recorded (the signed record is never corrected).
   */
  appliesFrom: isoDateTimeSchema,
  /** The signed period it falls in and is not applied to, [from, to): shown beside it as an amendment; null otherwise. */
  amendedPeriod: z.object({ from: isoDateTimeSchema, to: isoDateTimeSchema }).nullable(),
});
export type Calibration = z.infer<typeof calibrationSchema>;

export const calibrationListResponseSchema = z.object({ calibrations: z.array(calibrationSchema) });
export const calibrationResponseSchema = z.object({ calibration: calibrationSchema });
export const calibrationParamsSchema = z.strictObject({ id: uuidSchema, calibrationId: uuidSchema });
