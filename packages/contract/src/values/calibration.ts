/** Verifications' plain values (no zod): what a browser bundle may import without the schemas. */

/** Certificates are PDF, PNG or JPEG files of 2 MB at most. */
export const CERTIFICATE_MAX_BYTES = 2 * 1024 * 1024;
export const CERTIFICATE_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];
/** The largest offset a verification may record: beyond it the sensor is replaced, not corrected. */
export const MAX_CALIBRATION_OFFSET = 5;
