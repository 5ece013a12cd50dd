import type { DeviceKind } from '@vigie/contract';
import { DatabaseUnavailableError, isDatabaseUnavailable, isTransactionConflict } from '../../db/connection-errors.ts';
import type { ReadingRow } from './reading-dal.ts';

export type { ReadingRow } from './reading-dal.ts';

/** A device heard from: its last-seen time moves to now, its battery and transmitter are kept. */
export interface ReadingTouch {
  deviceId: string;
  kind: DeviceKind;
  battery: number | null;
  emitterId: string | null;
}

interface Pending {
  rows: ReadingRow[];
  touches: ReadingTouch[];
  /** Whether each row was stored (false: a retry of a reading id already stored). */
  resolve(stored: boolean[]): void;
  reject(error: unknown): void;
}

const MAX_ROWS_PER_TRANSACTION = 5000;
/** Tries when the database is unreachable: about 0.3 s in all before the write fails. */
const UNAVAILABLE_ATTEMPTS = 3;

/**
 * Group commit for readings: writes arriving while a transaction runs are gathered into the
 * next one, so throughput grows with load while a lone reading is written at once. Another
 * transaction runs beside it (up to `concurrency`) only when more waits than one can hold. A
 * write's promise resolves only after its transaction has committed — what is acknowledged is
 * stored.
 */
export function createReadingWriter(deps: {
  /**
   * Stores readings and latest values in one transaction (one statement, one round trip);
   * resolves with the `device|reading id|key` of the rows with an id that were stored.
   */
  insert: (rows: ReadingRow[]) => Promise<Set<string>>;
  /** Marks devices as heard from (the devices module owns them). */
  touch: (touches: ReadingTouch[], latest: ReadingRow[]) => Promise<void>;
  concurrency?: number;
}) {
  const concurrency = deps.concurrency ?? 1;
  const queue: Pending[] = [];
  /** Rows waiting in `queue`. */
  let queuedRows = 0;
  let flushing = 0;
  let scheduled = false;
  let closed = false;

  async function commit(batch: Pending[]): Promise<boolean[][]> {
    const rows = batch.flatMap((item) => item.rows);
    const latest = new Map<string, ReadingRow>();
    for (const row of rows) {
      const id = `${row.deviceId}|${row.key}`;
      const current = latest.get(id);
      if (!current || current.ts <= row.ts) latest.set(id, row);
    }
    const touched = new Map<string, ReadingTouch>();
    for (const touch of batch.flatMap((item) => item.touches)) {
      const previous = touched.get(touch.deviceId);
      touched.set(touch.deviceId, {
        ...touch,
        battery: touch.battery ?? previous?.battery ?? null,
        emitterId: touch.emitterId ?? previous?.emitterId ?? null,
      });
    }
    // Each step is retried on its own: replaying stored readings without ids would store them
    // twice. Devices are marked heard, and their lists shown the new values, once those are stored.
    const claimed = await retried(() => deps.insert(rows));
    await retried(() => deps.touch([...touched.values()], [...latest.values()]));
    // Of rows with the same id in one batch, the first was stored (the statement keeps the earliest).
    return batch.map((item) =>
      item.rows.map((row) => {
        if (row.readingId === null) return true;
        return claimed.delete(`${row.deviceId}|${row.readingId}|${row.key}`);
      }),
    );
  }

  async function retried<T>(step: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await step();
      } catch (error) {
        // Two transactions touching the same devices: PostgreSQL aborts one; it is safe to replay.
        if (isTransactionConflict(error) && attempt < 5) continue;
        // A connection lost or refused for a moment: a short wait, then again (a device
        // would resend the same readings anyway, and reading ids are deduplicated).
        if (isDatabaseUnavailable(error) && attempt < UNAVAILABLE_ATTEMPTS && !closed) {
          await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
          continue;
        }
        throw error;
      }
    }
  }

  async function flush(): Promise<void> {
    scheduled = false;
    if (flushing >= concurrency || queue.length === 0) return;
    // A second transaction only when one cannot take all that waits: otherwise what arrives
    // while one commits leaves with the next, in one larger batch (fewer statements per reading).
    if (flushing > 0 && queuedRows < MAX_ROWS_PER_TRANSACTION) return;
    flushing += 1;
    const batch: Pending[] = [];
    let size = 0;
    while (queue.length > 0 && (batch.length === 0 || size + (queue[0]?.rows.length ?? 0) <= MAX_ROWS_PER_TRANSACTION)) {
      const next = queue.shift() as Pending;
      size += next.rows.length;
      batch.push(next);
    }
    queuedRows -= size;
    try {
      const stored = await commit(batch);
      batch.forEach((item, index) => item.resolve(stored[index] ?? []));
    } catch (error) {
      for (const item of batch) item.reject(error);
    } finally {
      flushing -= 1;
      if (queue.length > 0) void flush();
    }
  }

  return {
    /** Resolves once committed, with whether each row was stored (false: a retry of a reading id already stored). */
    write(rows: ReadingRow[], touches: ReadingTouch[]): Promise<boolean[]> {
      if (closed) return Promise.reject(new DatabaseUnavailableError('the server is stopping'));
      return new Promise<boolean[]>((resolve, reject) => {
        queue.push({ rows, touches, resolve, reject });
        queuedRows += rows.length;
        if (flushing < concurrency && !scheduled) {
          scheduled = true;
          setImmediate(() => void flush());
        }
      });
    },
    /** Waits for queued writes to commit; later writes are refused. */
    async close(): Promise<void> {
      closed = true;
      while (flushing > 0 || queue.length > 0) {
        await flush();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}

export type ReadingWriter = ReturnType<typeof createReadingWriter>;
