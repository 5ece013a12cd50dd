import { type DeviceEvent, type DeviceKind, TRASH_RETENTION_DAYS, type TrashedDevice } from '@vigie/contract';
import { notFound } from '../../errors.ts';
import type { DeviceDal } from './device-dal.ts';
import type { DeviceRecord } from './device-types.ts';
import type { DeviceView } from './device-view.ts';

const DAY_MS = 24 * 3600 * 1000;
export const NOT_IN_TRASH = 'Cet appareil n’est pas dans la corbeille.';

/** Devices deleted before this moment are due for purge and can no longer be restored. */
export const trashCutoff = (now: Date) => new Date(now.getTime() - TRASH_RETENTION_DAYS * DAY_MS);

/**
 * The trash of one kind of device: a device moved there leaves every view but keeps its history
 * and token, and can be brought back until the retention period ends; then it is purged.
 */
export function createDeviceTrash(deps: {
  kind: DeviceKind;
  /** The service's DAL, whose changes forget the lists in memory. */
  dal: Pick<DeviceDal, 'trash' | 'restore' | 'listTrashed' | 'expired' | 'purge'>;
  now: () => Date;
  view: (record: DeviceRecord) => Promise<DeviceView>;
  announce: (organizationId: string, events: DeviceEvent[]) => void;
  missing: () => Error;
  /** Told after a deletion, so the device's credentials and sessions end with it. */
  onDeleted?: (deviceId: string, organizationId: string) => void | Promise<void>;
  /** Told after a restore, so the device's kept token works again at once. */
  onRestored?: (deviceId: string, organizationId: string) => void | Promise<void>;
}) {
  const { kind, dal, now, announce } = deps;

  return {
    /** Moves the device to the trash: gone from every view, its history and token kept for a restore. */
    async remove(organizationId: string, id: string) {
      if (!(await dal.trash(organizationId, id, now()))) throw deps.missing();
      await deps.onDeleted?.(id, organizationId);
      announce(organizationId, [{ action: 'deleted', kind, deviceId: id }]);
    },
    /** Brings a device back from the trash with its history; its token works again. */
    async restore(organizationId: string, id: string): Promise<DeviceView> {
      const record = await dal.restore(organizationId, id, trashCutoff(now()));
      if (!record) throw notFound(NOT_IN_TRASH);
      const restored = await deps.view(record);
      await deps.onRestored?.(id, organizationId);
      announce(organizationId, [{ action: 'created', ...restored }]);
      return restored;
    },
    async listTrashed(organizationId: string): Promise<TrashedDevice[]> {
      const records = await dal.listTrashed(organizationId, trashCutoff(now()));
      return records.map((record) => ({
        kind,
        id: record.id,
        name: record.name,
        serial: record.serial,
        model: record.model,
        deletedAt: record.deletedAt.toISOString(),
        purgeAt: new Date(record.deletedAt.getTime() + TRASH_RETENTION_DAYS * DAY_MS).toISOString(),
      }));
    },
    /** Ids of trashed devices past the retention period at `at`, a batch at a time. */
    expired(at: Date, limit: number) {
      return dal.expired(trashCutoff(at), limit);
    },
    /** Erases devices past the retention period at `at` (their telemetry must be erased first). */
    async purge(ids: string[], at: Date): Promise<number> {
      return (await dal.purge(ids, trashCutoff(at))).length;
    },
  };
}
