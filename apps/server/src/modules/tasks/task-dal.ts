import { and, asc, eq, getTableColumns, gte, inArray, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { TaskStatus } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { taskPhotos, tasks, taskTemplates } from '../../db/schema.ts';

export type TemplateRecord = typeof taskTemplates.$inferSelect;
export type TemplateInsert = Omit<typeof taskTemplates.$inferInsert, 'id'>;
export type TaskRecord = typeof tasks.$inferSelect;
export type TaskInsert = Omit<typeof tasks.$inferInsert, 'id' | 'createdAt'>;
export type PhotoRecord = typeof taskPhotos.$inferSelect;

/** The only code that touches `task_templates`, `tasks` and `task_photos`. */
export function createTaskDal(db: Database) {
  const template = (organizationId: string, id: string) =>
    and(eq(taskTemplates.organizationId, organizationId), eq(taskTemplates.id, id), isNull(taskTemplates.deletedAt));
  const task = (organizationId: string, id: string) => and(eq(tasks.organizationId, organizationId), eq(tasks.id, id));

  return {
    async createTemplate(values: TemplateInsert): Promise<TemplateRecord> {
      const [row] = await db.insert(taskTemplates).values(values).returning();
      if (!row) throw new Error('Modèle non enregistré.');
      return row;
    },

    async templates(organizationId: string): Promise<TemplateRecord[]> {
      return db
        .select()
        .from(taskTemplates)
        .where(and(eq(taskTemplates.organizationId, organizationId), isNull(taskTemplates.deletedAt)))
        .orderBy(asc(taskTemplates.name), asc(taskTemplates.id));
    },

    async findTemplate(organizationId: string, id: string): Promise<TemplateRecord | undefined> {
      const [row] = await db.select().from(taskTemplates).where(template(organizationId, id)).limit(1);
      return row;
    },

    async updateTemplate(organizationId: string, id: string, values: Partial<TemplateInsert>): Promise<TemplateRecord | undefined> {
      const [row] = await db.update(taskTemplates).set(values).where(template(organizationId, id)).returning();
      return row;
    },

    /** Ends a template: it makes no more tasks, and its tasks not yet due go with it. */
    async deleteTemplate(organizationId: string, id: string, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(taskTemplates)
          .set({ deletedAt: now })
          .where(template(organizationId, id))
          .returning({ id: taskTemplates.id });
        if (!row) return false;
        await tx.delete(tasks).where(and(eq(tasks.templateId, id), eq(tasks.status, 'pending'), sql`${tasks.dueAt} > ${now}`));
        return true;
      });
    },

    /** Tasks of a template not yet due, dropped when its schedule, checklist or sites change. */
    async dropUpcoming(templateId: string, now: Date): Promise<void> {
      await db.delete(tasks).where(and(eq(tasks.templateId, templateId), eq(tasks.status, 'pending'), sql`${tasks.dueAt} > ${now}`));
    },

    /** The live templates whose tasks exist up to before `horizon`, for the clock. */
    async templatesBefore(horizon: Date, limit: number): Promise<TemplateRecord[]> {
      return db
        .select()
        .from(taskTemplates)
        .where(and(isNull(taskTemplates.deletedAt), lt(taskTemplates.generatedUntil, horizon)))
        .orderBy(asc(taskTemplates.generatedUntil))
        .limit(limit);
    },

    /**
     * Inserts the occurrences (the same template, site and due time once, whatever instance makes
     * it) and moves the template's horizon forward; returns how many were new.
     */
    async addTasks(templateId: string, rows: TaskInsert[], generatedUntil: Date): Promise<number> {
      return db.transaction(async (tx) => {
        let added = 0;
        for (let i = 0; i < rows.length; i += 500) {
          const inserted = await tx
            .insert(tasks)
            .values(rows.slice(i, i + 500))
            .onConflictDoNothing()
            .returning({ id: tasks.id });
          added += inserted.length;
        }
        await tx
          .update(taskTemplates)
          .set({ generatedUntil, updatedAt: sql`${taskTemplates.updatedAt}` })
          .where(and(eq(taskTemplates.id, templateId), lt(taskTemplates.generatedUntil, generatedUntil)));
        return added;
      });
    },

    list(
      organizationId: string,
      filters: { siteIds: readonly string[] | null; siteId?: string | undefined; from?: Date; to?: Date; status?: TaskStatus | undefined },
      limit = 2000,
    ): Promise<TaskRecord[]> {
      const conditions: SQL[] = [eq(tasks.organizationId, organizationId)];
      if (filters.siteIds !== null) {
        if (filters.siteIds.length === 0) return Promise.resolve([]);
        conditions.push(inArray(tasks.siteId, [...filters.siteIds]));
      }
      if (filters.siteId) conditions.push(eq(tasks.siteId, filters.siteId));
      if (filters.from) conditions.push(gte(tasks.dueAt, filters.from));
      if (filters.to) conditions.push(lt(tasks.dueAt, filters.to));
      if (filters.status) conditions.push(eq(tasks.status, filters.status));
      return db
        .select()
        .from(tasks)
        .where(and(...conditions))
        .orderBy(asc(tasks.dueAt), asc(tasks.name), asc(tasks.id))
        .limit(limit);
    },

    /** The tasks due in [from, to) by site, state and result. */
    async countsBySite(
      organizationId: string,
      from: Date,
      to: Date,
    ): Promise<{ siteId: string; status: TaskStatus; nonconforming: boolean; count: number }[]> {
      return db
        .select({
          siteId: tasks.siteId,
          status: tasks.status,
          nonconforming: sql<boolean>`coalesce(${tasks.result} = 'nonconforming', false)`,
          count: sql<number>`count(*)::int`,
        })
        .from(tasks)
        .where(and(eq(tasks.organizationId, organizationId), gte(tasks.dueAt, from), lt(tasks.dueAt, to)))
        .groupBy(tasks.siteId, tasks.status, sql`coalesce(${tasks.result} = 'nonconforming', false)`);
    },

    async find(organizationId: string, id: string): Promise<TaskRecord | undefined> {
      const [row] = await db.select().from(tasks).where(task(organizationId, id)).limit(1);
      return row;
    },

    /**
     * Completes a task under its row lock: `decide` sees the task as it is and returns the changes,
     * or throws; two completions at once are one completion and one refusal.
     */
    async complete(
      organizationId: string,
      id: string,
      decide: (current: TaskRecord) => Partial<TaskInsert> | Promise<Partial<TaskInsert>>,
    ): Promise<TaskRecord | undefined> {
      return db.transaction(async (tx) => {
        const [current] = await tx.select().from(tasks).where(task(organizationId, id)).for('update').limit(1);
        if (!current) return undefined;
        const changes = await decide(current);
        const [row] = await tx.update(tasks).set(changes).where(eq(tasks.id, id)).returning();
        return row;
      });
    },

    /** Turns the pending tasks whose grace has ended missed: each row once, whatever instance runs it. */
    async markMissed(now: Date, limit: number): Promise<TaskRecord[]> {
      // The rows locked once, in a CTE (one that locks is never folded into the statement), then
      // updated by key alone: an `id in (…)` subquery, or a second test of the status, let the
      // planner — its statistics behind the pending tasks — read every task of the next 48 h at
      // each tick (`npm run bench:tasks`). A row locked here was pending when locked (the lock reads
      // its latest version) and stays so until this statement ends.
      const due = db.$with('due').as(
        db
          .select({ id: tasks.id })
          .from(tasks)
          .where(and(eq(tasks.status, 'pending'), lte(tasks.graceEndsAt, now)))
          .orderBy(asc(tasks.graceEndsAt))
          .limit(limit)
          .for('update', { skipLocked: true }),
      );
      return db.with(due).update(tasks).set({ status: 'missed' }).from(due).where(eq(tasks.id, due.id)).returning(getTableColumns(tasks));
    },

    /** Notes the alert a task opened. */
    async setAlert(id: string, alertId: string): Promise<void> {
      await db
        .update(tasks)
        .set({ alertId })
        .where(and(eq(tasks.id, id), isNull(tasks.alertId)));
    },

    /** The tasks whose failure has no alert yet (an instance stopped between the two steps). */
    async withoutAlert(before: Date, limit: number): Promise<TaskRecord[]> {
      return db
        .select()
        .from(tasks)
        .where(
          and(
            isNull(tasks.alertId),
            sql`(${tasks.status} = 'missed' or ${tasks.result} = 'nonconforming')`,
            gte(tasks.dueAt, new Date(before.getTime() - 7 * 24 * 3600 * 1000)),
          ),
        )
        .limit(limit);
    },

    async addPhoto(values: Omit<typeof taskPhotos.$inferInsert, 'id' | 'createdAt'>): Promise<PhotoRecord> {
      const [row] = await db.insert(taskPhotos).values(values).returning();
      if (!row) throw new Error('Photo non enregistrée.');
      return row;
    },

    async photo(organizationId: string, taskId: string, id: string): Promise<PhotoRecord | undefined> {
      const [row] = await db
        .select()
        .from(taskPhotos)
        .where(and(eq(taskPhotos.organizationId, organizationId), eq(taskPhotos.taskId, taskId), eq(taskPhotos.id, id)))
        .limit(1);
      return row;
    },

    /** The SHA-256 of the photos of these tasks, by task. */
    async photoHashes(taskIds: readonly string[]): Promise<Map<string, string[]>> {
      const hashes = new Map<string, string[]>();
      if (taskIds.length === 0) return hashes;
      const rows = await db
        .select({ taskId: taskPhotos.taskId, sha256: taskPhotos.sha256 })
        .from(taskPhotos)
        .where(inArray(taskPhotos.taskId, [...taskIds]))
        .orderBy(asc(taskPhotos.createdAt));
      for (const row of rows) hashes.set(row.taskId, [...(hashes.get(row.taskId) ?? []), row.sha256]);
      return hashes;
    },

    /** The photos of a task, without their bytes. */
    async photos(taskId: string): Promise<{ id: string; sha256: string; size: number }[]> {
      return db
        .select({ id: taskPhotos.id, sha256: taskPhotos.sha256, size: taskPhotos.size })
        .from(taskPhotos)
        .where(eq(taskPhotos.taskId, taskId));
    },
  };
}

export type TaskDal = ReturnType<typeof createTaskDal>;
