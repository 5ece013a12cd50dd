import type { DeviceKind } from '@vigie/contract';
import type { DeviceService } from './device-service.ts';

export const OFFLINE_CHECK_SECONDS = 15;

/** Announces, once across instances, devices that went silent for longer than their inactivity timeout. */
export async function announceOfflineDevices(services: {
  devices: Record<DeviceKind, Pick<DeviceService, 'announceOffline'>>;
}): Promise<number> {
  let count = 0;
  for (const service of Object.values(services.devices)) count += await service.announceOffline();
  return count;
}
