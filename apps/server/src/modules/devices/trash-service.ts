import type { DeviceKind, TrashedDevice } from '@vigie/contract';
import type { DeviceService } from './device-service.ts';

/** The trash (Corbeille) of an organization: its deleted transmitters and sensors together. */
export function createTrashService(devices: Record<DeviceKind, DeviceService>) {
  return {
    /** Newest deletion first. */
    async list(organizationId: string): Promise<TrashedDevice[]> {
      const [emitters, sensors] = await Promise.all([
        devices.emitter.listTrashed(organizationId),
        devices.sensor.listTrashed(organizationId),
      ]);
      return [...emitters, ...sensors].sort((a, b) => (a.deletedAt === b.deletedAt ? 0 : a.deletedAt < b.deletedAt ? 1 : -1));
    },
  };
}

export type TrashService = ReturnType<typeof createTrashService>;
