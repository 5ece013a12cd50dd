import type { DeviceKind } from '@vigie/contract';
import { sql } from 'drizzle-orm';
import { isDatabaseUnavailable, isTransactionConflict } from '../../db/connection-errors.ts';
import type { Database } from '../../db/database.ts';

export interface ReadingRow {
  deviceId: string;
  key: string;
  ts: Date;
  value: number;
  readingId: string | null;
}

/** A device heard from: its last-seen time moves to now, its battery and transmitter are kept. */
export interface DeviceTouch {
  deviceId: string;
  kind: DeviceKind;
  battery: number | null;
  emitterId: string | null;
}

interface Pending {
  rows: ReadingRow[];
  touches: DeviceTouch[];
  resolve(): void;
  reject(error: unknown): void;
}

const MAX_ROWS_PER_TRANSACTION = 5000;
/** Tries when the database is unreachable: about 0.3 s in all before the write fails. */
const UNAVAILABLE_ATTEMPTS = 3;

/**
 * Group commit for readings: writes arriving while a transaction runs are gathered into the
 * next one, so throughput grows with load while a lone reading is written at once. A write's
 * promise resolves only after its transaction has committed — what is acknowledged is stored.
 */
export function createReadingWriter(db: Database, concurrency = 1) {
  const queue: Pending[] = [];
  let flushing = 0;
  let scheduled = false;
  let closed = false;

  async function commit(batch: Pending[]): Promise<void> {
    const rows = batch.flatMap((item) => item.rows);
    const latest = new Map<string, ReadingRow>();
    for (const row of rows) {
      const id = `${row.deviceId}|${row.key}`;
      const current = latest.get(id);
      if (!current || current.ts <= row.ts) latest.set(id, row);
    }
    const touched = new Map<string, DeviceTouch>();
    for (const touch of batch.flatMap((item) => item.touches)) {
      const previous = touched.get(touch.deviceId);
      touched.set(touch.deviceId, {
        ...touch,
        battery: touch.battery ?? previous?.battery ?? null,
        emitterId: touch.emitterId ?? previous?.emitterId ?? null,
      });
    }
    // Rows locked in one global order (device, key), so concurrent transactions cannot deadlock.
    const byDeviceKey = (a: ReadingRow, b: ReadingRow) =>
      a.deviceId === b.deviceId ? (a.key < b.key ? -1 : 1) : a.deviceId < b.deviceId ? -1 : 1;
    const latestRows = [...latest.values()].sort(byDeviceKey);
    const touchJson = (kind: DeviceKind) =>
      JSON.stringify(
        [...touched.values()]
          .filter((t) => t.kind === kind)
          .sort((a, b) => (a.deviceId < b.deviceId ? -1 : 1))
          .map((t) => ({ id: t.deviceId, battery: t.battery, emitter_id: t.emitterId })),
      );

    await db.transaction(async (tx) => {
      if (rows.length > 0) {
        await tx.execute(sql`
          insert into readings (device_id, key, ts, value, reading_id)
          select device_id, key, ts, value, reading_id
          from json_to_recordset(${JSON.stringify(rows.map((r) => ({ device_id: r.deviceId, key: r.key, ts: r.ts.toISOString(), value: r.value, reading_id: r.readingId })))}::json)
            as x(device_id uuid, key text, ts timestamptz, value float8, reading_id text)
          on conflict do nothing`);
        await tx.execute(sql`
          insert into latest_values (device_id, key, value, ts)
          select device_id, key, value, ts
          from json_to_recordset(${JSON.stringify(latestRows.map((r) => ({ device_id: r.deviceId, key: r.key, ts: r.ts.toISOString(), value: r.value })))}::json)
            as x(device_id uuid, key text, value float8, ts timestamptz)
          on conflict (device_id, key) do update set value = excluded.value, ts = excluded.ts
          where latest_values.ts <= excluded.ts`);
      }
      await tx.execute(sql`
        update emitters d set last_seen_at = now(), battery = coalesce(v.battery, d.battery)
        from json_to_recordset(${touchJson('emitter')}::json) as v(id uuid, battery real)
        where d.id = v.id`);
      await tx.execute(sql`
        update sensors d set last_seen_at = now(), battery = coalesce(v.battery, d.battery), emitter_id = coalesce(v.emitter_id, d.emitter_id)
        from json_to_recordset(${touchJson('sensor')}::json) as v(id uuid, battery real, emitter_id uuid)
        where d.id = v.id`);
    });
  }

  async function flush(): Promise<void> {
    scheduled = false;
    if (flushing >= concurrency || queue.length === 0) return;
    flushing += 1;
    const batch: Pending[] = [];
    let size = 0;
    while (queue.length > 0 && (batch.length === 0 || size + (queue[0]?.rows.length ?? 0) <= MAX_ROWS_PER_TRANSACTION)) {
      const next = queue.shift() as Pending;
      size += next.rows.length;
      batch.push(next);
    }
    try {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await commit(batch);
          break;
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
      for (const item of batch) item.resolve();
    } catch (error) {
      for (const item of batch) item.reject(error);
    } finally {
      flushing -= 1;
      if (queue.length > 0) void flush();
    }
  }

  return {
    write(rows: ReadingRow[], touches: DeviceTouch[]): Promise<void> {
      if (closed) return Promise.reject(new Error('Database unavailable: the server is stopping'));
      return new Promise<void>((resolve, reject) => {
        queue.push({ rows, touches, resolve, reject });
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
