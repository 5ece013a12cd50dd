import type { DeviceKind } from '@vigie/contract';
import type { CredentialService } from './credential-service.ts';
import type { DeviceService } from './device-service.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';

const PURGE_BATCH = 100;

/**
 * Erases devices trashed more than TRASH_RETENTION_DAYS before `now()`, with their readings,
 * latest values and credentials. An expired device can no longer be restored and every delete
 * is idempotent, so several instances may run it at once, and a run cut short (telemetry
 * erased, device row not yet) is finished by the next one.
 */
export async function purgeTrash(
  services: {
    devices: Record<DeviceKind, Pick<DeviceService, 'expired' | 'purge'>>;
    telemetry: Pick<TelemetryService, 'eraseDevices'>;
    credentials: Pick<CredentialService, 'erase'>;
  },
  now: () => Date = () => new Date(),
): Promise<number> {
  const at = now();
  let total = 0;
  for (const devices of Object.values(services.devices)) {
    for (;;) {
      const ids = await devices.expired(at, PURGE_BATCH);
      if (ids.length === 0) break;
      await services.telemetry.eraseDevices(ids);
      await services.credentials.erase(ids);
      total += await devices.purge(ids, at);
      if (ids.length < PURGE_BATCH) break;
    }
  }
  return total;
}
