import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { processes } from '../../db/schema.ts';

export type ProcessRecord = typeof processes.$inferSelect;
export type ProcessInsert = Omit<typeof processes.$inferInsert, 'id' | 'createdAt'>;

/** The only code that touches `processes`. */
export function createProcessDal(db: Database) {
  const owned = (organizationId: string, id: string) => and(eq(processes.organizationId, organizationId), eq(processes.id, id));
  return {
    async create(values: ProcessInsert): Promise<ProcessRecord> {
      const [row] = await db.insert(processes).values(values).returning();
      if (!row) throw new Error('Procédé non enregistré.');
      return row;
    },

    async find(organizationId: string, id: string): Promise<ProcessRecord | undefined> {
      const [row] = await db.select().from(processes).where(owned(organizationId, id)).limit(1);
      return row;
    },

    list(
      organizationId: string,
      filters: { siteIds: readonly string[] | null; siteId?: string | undefined; status?: ProcessRecord['status'] | undefined },
      limit = 500,
    ): Promise<ProcessRecord[]> {
      const conditions: SQL[] = [eq(processes.organizationId, organizationId)];
      if (filters.siteIds !== null) {
        if (filters.siteIds.length === 0) return Promise.resolve([]);
        conditions.push(inArray(processes.siteId, [...filters.siteIds]));
      }
      if (filters.siteId) conditions.push(eq(processes.siteId, filters.siteId));
      if (filters.status) conditions.push(eq(processes.status, filters.status));
      return db
        .select()
        .from(processes)
        .where(and(...conditions))
        .orderBy(desc(processes.startedAt), desc(processes.id))
        .limit(limit);
    },

    /** The sensors that feed a running process, whatever the organization. */
    async probesRunning(): Promise<string[]> {
      const rows = await db
        .selectDistinct({ sensorId: processes.sensorId })
        .from(processes)
        .where(and(eq(processes.status, 'running'), isNotNull(processes.sensorId)));
      return rows.flatMap((row) => (row.sensorId ? [row.sensorId] : []));
    },

    /** The running processes a sensor of the organization feeds. */
    async runningOn(organizationId: string, sensorId: string): Promise<ProcessRecord[]> {
      return db
        .select()
        .from(processes)
        .where(and(eq(processes.organizationId, organizationId), eq(processes.sensorId, sensorId), eq(processes.status, 'running')));
    },

    /** A site's processes started in [from, to), oldest first. */
    startedDuring(organizationId: string, siteId: string, from: Date, to: Date): Promise<ProcessRecord[]> {
      return db
        .select()
        .from(processes)
        .where(
          and(
            eq(processes.organizationId, organizationId),
            eq(processes.siteId, siteId),
            gte(processes.startedAt, from),
            lt(processes.startedAt, to),
          ),
        )
        .orderBy(asc(processes.startedAt), asc(processes.id));
    },

    /** Changes a process under its row lock: `decide` sees it as it is and returns the changes, or throws. */
    async change(
      organizationId: string,
      id: string,
      decide: (current: ProcessRecord) => Partial<ProcessInsert>,
    ): Promise<ProcessRecord | undefined> {
      return db.transaction(async (tx) => {
        const [current] = await tx.select().from(processes).where(owned(organizationId, id)).for('update').limit(1);
        if (!current) return undefined;
        const [row] = await tx.update(processes).set(decide(current)).where(eq(processes.id, id)).returning();
        return row;
      });
    },

    /** The running processes past their deadline, failed each once whatever instance runs it. */
    async failDue(now: Date, failure: (record: ProcessRecord) => string, limit: number): Promise<ProcessRecord[]> {
      return db.transaction(async (tx) => {
        const due = await tx
          .select()
          .from(processes)
          .where(and(eq(processes.status, 'running'), lte(processes.deadline, now)))
          .limit(limit)
          .for('update', { skipLocked: true });
        const failed: ProcessRecord[] = [];
        for (const record of due) {
          const [row] = await tx
            .update(processes)
            .set({ status: 'failed', failure: failure(record), endedAt: record.deadline })
            .where(eq(processes.id, record.id))
            .returning();
          if (row) failed.push(row);
        }
        return failed;
      });
    },

    async setAlert(id: string, alertId: string): Promise<void> {
      await db
        .update(processes)
        .set({ alertId })
        .where(and(eq(processes.id, id), isNull(processes.alertId)));
    },

    /** Failed processes whose alert is not opened yet (an instance stopped between the two steps). */
    async withoutAlert(limit: number): Promise<ProcessRecord[]> {
      return db
        .select()
        .from(processes)
        .where(and(eq(processes.status, 'failed'), isNull(processes.alertId)))
        .limit(limit);
    },
  };
}

export type ProcessDal = ReturnType<typeof createProcessDal>;
