import type { IntegrationRefusalReason } from '@vigie/contract';
import { AppError } from '../../../errors.ts';

/**
 * A message whose content is wrong (docs/api.md, LoRaWAN): refused with its reason, answered 202
 * rather than 4xx (a network server stops pushing after a few failures, the valid messages with
 * the bad), listed in the integration's health.
 */
export class MessageRefusal extends AppError {
  constructor(
    readonly reason: Exclude<IntegrationRefusalReason, 'bad_secret'>,
    message: string,
    readonly devEui: string | null = null,
  ) {
    super(400, message);
    this.name = 'MessageRefusal';
  }
}

/**
 * What a network server sends, read into one shape whatever its dialect (the port every network's
 * adapter writes to): an uplink, a device's status, or any other message, answered and not stored.
 */
export type NetworkMessage =
  | {
      kind: 'uplink';
      devEui: string;
      /** The session's device address and frame counter: the same pair twice is the same frame. */
      devAddr: string | null;
      fCnt: number | null;
      /**
       * The network server's name for this reception, when it gives one (ChirpStack's
       * `deduplicationId`, The Things Stack's `as:up:` correlation id, Live Objects' message id,
       * Helium's `uuid`): the same message sent again carries it again.
       */
      receptionId: string | null;
      fPort: number | null;
      /** The application payload, when the message carries one. */
      bytes: Uint8Array | null;
      /** The network server's own decoding of the payload, if it made one. */
      decoded: Record<string, unknown> | null;
      receivedAt: Date | null;
      /** The best gateway's signal, and that gateway's EUI (or id). */
      rssi: number | null;
      snr: number | null;
      gateway: string | null;
      /** The maker and model the network server knows (The Things Stack's `version_ids`). */
      versionIds: { brand_id?: string; model_id?: string } | null;
    }
  | { kind: 'status'; devEui: string; battery: number | null; receivedAt: Date | null }
  | { kind: 'other'; devEui: string | null; name: string };

export type Uplink = Extract<NetworkMessage, { kind: 'uplink' }>;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : null;
}

export function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A number sent as a number or as its decimal text (`"-97"`, `"9.25"`), as ThingPark may. */
export function numeric(value: unknown): number | null {
  if (typeof value === 'string' && /^\s*-?\d{1,12}(\.\d{1,12})?\s*$/.test(value)) return Number(value);
  return finite(value);
}

/** An ISO 8601 date. */
export function date(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** A date sent as milliseconds since 1970 (Loriot's `ts`, Helium's `reported_at`). */
export function millis(value: unknown): Date | null {
  const ms = numeric(value);
  return ms !== null && ms > 0 && ms < 8.64e15 ? new Date(Math.round(ms)) : null;
}

/** A DevEUI as stored: 16 lower-case hexadecimal digits; null when it is not one. */
export function normalDevEui(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const hex = value.replace(/[\s:-]/g, '').toLowerCase();
  return /^[0-9a-f]{16}$/.test(hex) ? hex : null;
}

export function requireDevEui(value: unknown): string {
  const devEui = normalDevEui(value);
  if (!devEui)
    throw new MessageRefusal('bad_dev_eui', 'DevEUI absent ou invalide dans le message : 16 chiffres hexadécimaux sont attendus.');
  return devEui;
}

export function base64Bytes(value: unknown, field: string): Uint8Array | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 2048 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
    throw new MessageRefusal('malformed', `« ${field} » doit être la trame en base64 (2 Kio au plus).`);
  }
  return new Uint8Array(Buffer.from(value, 'base64'));
}

export function hexBytes(value: unknown, field: string): Uint8Array | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 2048 || !/^(?:[0-9A-Fa-f]{2})*$/.test(value)) {
    throw new MessageRefusal(
      'malformed',
      `« ${field} » doit être la trame en hexadécimal, un nombre pair de chiffres 0-9 et A-F (1 Kio au plus).`,
    );
  }
  return new Uint8Array(Buffer.from(value, 'hex'));
}

/** The strongest signal among the gateways that heard the frame. */
export function bestGateway(
  list: unknown,
  read: (entry: Record<string, unknown>) => { rssi: number | null; snr: number | null; id: string | null },
) {
  let best: { rssi: number | null; snr: number | null; id: string | null } = { rssi: null, snr: null, id: null };
  if (!Array.isArray(list)) return best;
  for (const entry of list.slice(0, 64)) {
    if (!isObject(entry)) continue;
    const seen = read(entry);
    if (seen.rssi !== null && (best.rssi === null || seen.rssi > best.rssi)) best = seen;
    else if (best.id === null) best = seen;
  }
  return best;
}

/** A gateway's id as its serial: an EUI in lower case, another id as it came. */
export function gatewayId(value: unknown): string | null {
  return normalDevEui(value) ?? text(value);
}
