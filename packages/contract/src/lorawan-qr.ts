/**
 * The QR code of a LoRaWAN device's label in the LoRa Alliance TR005 form, without zod so that the
 * web app reads it alone: `LW:D0:<JoinEUI>:<DevEUI>:<ProfileID>`, then optional fields each named
 * by a letter (`O` owner token, `S` serial number, `P` proprietary, `C` checksum…). The checksum
 * is not verified: the EUIs' own shape is.
 */
export type LoraWanQr = {
  /** 16 hexadecimal digits, lower-case. */
  devEui: string;
  /** 16 hexadecimal digits, lower-case. */
  joinEui: string;
  /** The maker's vendor id and profile id, 8 hexadecimal digits, lower-case. */
  profileId: string;
  /** The maker's serial number (`S` field), as printed. */
  serial?: string;
};

const EUI = /^[0-9a-f]{16}$/i;
const PROFILE_ID = /^[0-9a-f]{8}$/i;

/** Reads a TR005 label (`LW:D0:…`); null when the text is not one. */
export function parseLoraWanQr(text: string): LoraWanQr | null {
  const fields = text.trim().split(':');
  if (fields.length < 5) return null;
  const [schema, version, joinEui = '', devEui = '', profileId = '', ...extensions] = fields;
  if (schema?.toUpperCase() !== 'LW' || version?.toUpperCase() !== 'D0') return null;
  if (!EUI.test(joinEui) || !EUI.test(devEui) || !PROFILE_ID.test(profileId)) return null;
  const qr: LoraWanQr = { devEui: devEui.toLowerCase(), joinEui: joinEui.toLowerCase(), profileId: profileId.toLowerCase() };
  for (const extension of extensions) {
    // A field is a letter then its value; an empty one (`…::…`, a trailing colon) is not a field.
    if (!/^[A-Za-z]/.test(extension)) return null;
    const value = extension.slice(1);
    if (extension[0]?.toUpperCase() === 'S' && value && qr.serial === undefined) qr.serial = value;
  }
  return qr;
}
