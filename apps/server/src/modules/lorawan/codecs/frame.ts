import { MAX_VALUES_PER_READING, measureNameProblem } from '@vigie/contract';
import type { Codec, CodecInput, CodecResult, DecodedReading } from './types.ts';

/** Narrow no-break space, before « : » and inside « » in French. */
export const NNBSP = '\u202F';

/** What a codec's own decoding returns; `defineCodec` checks it and turns it into a `CodecResult`. */
export type Outcome = { error: string } | { readings: DecodedReading[]; warnings: string[] };

export const fail = (error: string): Outcome => ({ error });
export const done = (readings: DecodedReading[], warnings: string[]): Outcome => ({ readings, warnings });

// Byte readers. Callers check the frame's length first; a byte past the end reads as 0.
export const u8 = (bytes: Uint8Array, at: number): number => bytes[at] ?? 0;
export const u16be = (bytes: Uint8Array, at: number): number => u8(bytes, at) * 0x100 + u8(bytes, at + 1);
export const u16le = (bytes: Uint8Array, at: number): number => u8(bytes, at) + u8(bytes, at + 1) * 0x100;
export const u24be = (bytes: Uint8Array, at: number): number => u8(bytes, at) * 0x10000 + u16be(bytes, at + 1);
export const u24le = (bytes: Uint8Array, at: number): number => u16le(bytes, at) + u8(bytes, at + 2) * 0x10000;
export const u32be = (bytes: Uint8Array, at: number): number => u16be(bytes, at) * 0x10000 + u16be(bytes, at + 2);
export const u32le = (bytes: Uint8Array, at: number): number => u16le(bytes, at) + u16le(bytes, at + 2) * 0x10000;
const signed = (value: number, bits: number): number => (value >= 2 ** (bits - 1) ? value - 2 ** bits : value);
export const i16be = (bytes: Uint8Array, at: number): number => signed(u16be(bytes, at), 16);
export const i16le = (bytes: Uint8Array, at: number): number => signed(u16le(bytes, at), 16);
export const i24be = (bytes: Uint8Array, at: number): number => signed(u24be(bytes, at), 24);

/** `0x0A`: a byte as the makers' documents write it. */
export const hex = (byte: number): string => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** « 1 octet », « 3 octets » (French: 0 and 1 take the singular). */
export const octets = (count: number): string => `${count} octet${count > 1 ? 's' : ''}`;

/** « <lead> : 3 octets reçus, 4 au moins attendus. » */
export function shortFrame(lead: string, received: number, expected: number): string {
  const got = `${octets(received)} reçu${received > 1 ? 's' : ''}`;
  return `${lead}${NNBSP}: ${got}, ${expected} au moins attendu${expected > 1 ? 's' : ''}.`;
}

/** « Trame trop courte pour un EM300-TH : 3 octets reçus, 4 au moins attendus. » */
export const tooShort = (subject: string, received: number, expected: number): string =>
  shortFrame(`Trame trop courte pour ${subject}`, received, expected);

/** « Port LoRaWAN 42 inattendu pour un TBHH100 : les mesures arrivent sur le port 103. » */
export const wrongPort = (subject: string, fPort: number, expected: string): string =>
  `Port LoRaWAN ${fPort} inattendu pour ${subject}${NNBSP}: ${expected}.`;

/**
 * A battery percentage from a cell voltage: linear from `empty` (0 %) to `full` (100 %), clamped,
 * to the unit. Lithium primary cells hold their voltage most of their life, then fall quickly:
 * the percentage is a coarse indication, which the devices' own low-battery flags complete.
 */
export function batteryPercent(volts: number, empty: number, full: number): number {
  const percent = ((volts - empty) / (full - empty)) * 100;
  return Math.round(Math.min(100, Math.max(0, percent)));
}

/**
 * The linear map for the 3.6 V lithium cells of these devices: 3.6 V (the cell's nominal voltage)
 * is full, 2.5 V empty (the floor of Browan's battery field, and below what the devices run on).
 */
export const LITHIUM_3V6 = { empty: 2.5, full: 3.6 } as const;

/** How far a device's clock may run ahead of the network's reception time (the telemetry's own tolerance). */
const MAX_AHEAD_MS = 5 * 60 * 1000;
/** How old a logged reading may be: past a year, the device's clock is more likely wrong than its log that old. */
const MAX_AGE_MS = 366 * 24 * 3600 * 1000;

/**
 * A time a device stamped itself (seconds since 1970) as a Date, or null when it cannot be right:
 * ahead of the reception time, or more than a year before it (a clock never set reads 1970 or 2000).
 */
export function deviceTime(seconds: number, recvTime: Date): Date | null {
  const received = recvTime instanceof Date && Number.isFinite(recvTime.getTime()) ? recvTime.getTime() : Date.now();
  const ms = seconds * 1000;
  if (!Number.isFinite(ms) || ms > received + MAX_AHEAD_MS || ms < received - MAX_AGE_MS) return null;
  return new Date(ms);
}

/** « Horodatage de l’appareil invalide (…) » for a logged entry skipped. */
export const badDeviceTime = (seconds: number): string =>
  `Horodatage de l’appareil invalide (${seconds}\u00A0s depuis 1970, loin de la réception)${NNBSP}: entrée d’historique ignorée.`;

interface CodecSpec {
  id: string;
  vendor: string;
  model: string;
  measures: string[];
  /** How messages name the device: « un EM300-TH ». */
  subject: string;
  decode(input: CodecInput): Outcome;
}

/**
 * A codec whose `decode` never throws: the bytes must be a Uint8Array, an unexpected error becomes
 * `ok: false`, values that are not finite numbers under a valid measure name are dropped, a reading
 * keeps at most the telemetry's number of values, and readings left without values are removed.
 */
export function defineCodec(spec: CodecSpec): Codec {
  const { id, vendor, model, measures, subject } = spec;
  return {
    id,
    vendor,
    model,
    measures,
    decode(input: CodecInput): CodecResult {
      try {
        if (!input || !(input.bytes instanceof Uint8Array)) {
          return { ok: false, error: `Trame illisible pour ${subject}${NNBSP}: ses octets manquent.` };
        }
        const outcome = spec.decode(input);
        if ('error' in outcome) return { ok: false, error: outcome.error };
        const warnings = [...outcome.warnings];
        const readings: DecodedReading[] = [];
        for (const reading of outcome.readings) {
          if (reading.ts !== null && !Number.isFinite(reading.ts.getTime())) continue;
          const values: Record<string, number> = {};
          let kept = 0;
          let dropped = 0;
          for (const [key, value] of Object.entries(reading.values)) {
            if (measureNameProblem(key) !== null || typeof value !== 'number' || !Number.isFinite(value)) continue;
            if (kept >= MAX_VALUES_PER_READING) {
              dropped += 1;
              continue;
            }
            values[key] = value;
            kept += 1;
          }
          if (dropped > 0) {
            warnings.push(
              `Trop de mesures dans une lecture${NNBSP}: ${MAX_VALUES_PER_READING} au plus, ${dropped} ignorée${dropped > 1 ? 's' : ''}.`,
            );
          }
          if (kept > 0) readings.push({ ts: reading.ts, values });
        }
        return { ok: true, readings, warnings };
      } catch {
        return { ok: false, error: `Trame illisible pour ${subject}${NNBSP}: le décodeur a rencontré une erreur inattendue.` };
      }
    },
  };
}
