import type { DeviceKind } from '@vigie/contract';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from './db/connection-errors.ts';
import { toDevice } from './modules/devices/device-service.ts';
import type { Services } from './services.ts';

const OFFLINE_CHECK_SECONDS = 15;
const RETENTION_EVERY_MS = 3600 * 1000;
const RETENTION_CHUNK = 10_000;

/** Announces devices that just went silent for longer than their inactivity timeout. */
export async function announceOfflineDevices(services: Services, windowSeconds = OFFLINE_CHECK_SECONDS): Promise<number> {
  let count = 0;
  for (const kind of ['emitter', 'sensor'] as DeviceKind[]) {
    const dal = services.devices[kind].dal;
    const silent = await dal.recentlyOffline(windowSeconds);
    const records = await dal.findMany(silent.map((device) => device.id));
    services.events.publish(
      records.map((record) => ({
        organizationId: record.organizationId,
        type: 'device' as const,
        data: { action: 'status', kind, device: toDevice(record, kind) },
      })),
    );
    count += records.length;
  }
  return count;
}

/** Deletes readings older than the retention period, in chunks that never hold a long lock. */
export async function enforceRetention(services: Services, retentionDays: number, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - retentionDays * 24 * 3600 * 1000);
  let total = 0;
  for (;;) {
    const deleted = await services.readings.deleteOlderThan(cutoff, RETENTION_CHUNK);
    total += deleted;
    if (deleted < RETENTION_CHUNK) return total;
  }
}

const PURGE_BATCH = 100;

/**
 * Erases devices trashed more than TRASH_RETENTION_DAYS before `now`, with their readings,
 * latest values and credentials. Every delete is idempotent and an expired device can no
 * longer be restored, so several instances may run it at once, and a run cut short is
 * finished by the next one.
 */
export async function purgeTrash(services: Services, now: () => Date = () => new Date()): Promise<number> {
  const at = now();
  let total = 0;
  for (const kind of ['emitter', 'sensor'] as DeviceKind[]) {
    for (;;) {
      const ids = await services.devices[kind].expired(at, PURGE_BATCH);
      if (ids.length === 0) break;
      while ((await services.readings.deleteOfDevices(ids, RETENTION_CHUNK)) === RETENTION_CHUNK);
      await services.credentials.erase(ids);
      total += await services.devices[kind].purge(ids, at);
      if (ids.length < PURGE_BATCH) break;
    }
  }
  return total;
}

/** Periodic jobs of a running server; returns a function that stops them. */
export function startJobs(services: Services, options: { retentionDays: number; logger: Logger }): () => void {
  const run = (name: string, job: () => Promise<unknown>) => () => {
    job().catch((error: unknown) => {
      if (isDatabaseUnavailable(error)) options.logger.warn({ job: name }, 'Tâche reportée : base de données indisponible');
      else options.logger.error({ err: error, job: name }, 'Échec d’une tâche périodique');
    });
  };
  const offline = setInterval(
    run('offline', () => announceOfflineDevices(services)),
    OFFLINE_CHECK_SECONDS * 1000,
  );
  const retention = run('retention', async () => {
    const deleted = await enforceRetention(services, options.retentionDays);
    if (deleted > 0) options.logger.info({ deleted, retentionDays: options.retentionDays }, 'Lectures anciennes supprimées');
  });
  const retentionAndPurge = () => {
    retention();
    run('purge', async () => {
      const purged = await purgeTrash(services);
      if (purged > 0) options.logger.info({ purged }, 'Appareils de la corbeille supprimés définitivement');
    })();
  };
  const firstRetention = setTimeout(retentionAndPurge, 60_000);
  const retentionTimer = setInterval(retentionAndPurge, RETENTION_EVERY_MS);
  for (const timer of [offline, firstRetention, retentionTimer]) timer.unref();
  return () => {
    clearInterval(offline);
    clearTimeout(firstRetention);
    clearInterval(retentionTimer);
  };
}
