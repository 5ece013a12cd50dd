import { AppError } from '../../errors.ts';
import { forbiddenText } from '../../text-guard.ts';
import type { DeviceIdentity } from '../../modules/devices/credential-service.ts';
import type { TelemetryService } from '../../modules/telemetry/telemetry-service.ts';

export const TOPIC_PREFIX = 'vigie/devices/';
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

/**
 * Stores one telemetry message of a device, whichever broker carried it. Bad input is refused the
 * way HTTP refuses it, and the device told why on its errors topic (`report`): the message is then
 * acknowledged, never a failed write that the device would send again forever. A storage failure
 * rejects: the message stays unacknowledged, and comes again.
 */
export async function storeTelemetryMessage(
  telemetry: Pick<TelemetryService, 'ingest'>,
  device: DeviceIdentity,
  payload: Buffer,
  report: (message: string) => void,
): Promise<void> {
  let parsed: unknown;
  try {
    if (payload.length > MAX_PAYLOAD_BYTES) throw new AppError(413, 'Message trop volumineux : 1 Mio au plus.');
    parsed = JSON.parse(payload.toString('utf8'));
    const forbidden = forbiddenText(parsed);
    if (forbidden) throw new AppError(400, forbidden);
  } catch (error) {
    report(error instanceof AppError ? error.message : "Le message n'est pas un JSON valide : rien n'a été enregistré.");
    return;
  }
  try {
    await telemetry.ingest(device, parsed);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    report(error.message);
  }
}

/** The JSON a device reads on its errors topic. */
export const errorPayload = (message: string) => Buffer.from(JSON.stringify({ message }));
