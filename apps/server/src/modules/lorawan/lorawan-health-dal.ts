import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { IntegrationRefusalReason } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { lorawanIntegrationHours, lorawanIntegrationRefusals } from '../../db/schema.ts';

/** The only code that touches the integrations' health tables (their messages by hour, their refusals). */
export function createLorawanHealthDal(db: Database) {
  return {
    /** One upsert per message: the hour's counts, and its last message when it came with the right secret. */
    async countHour(integrationId: string, hour: Date, at: Date, counts: { messages: number; refused: number }): Promise<void> {
      const lastAt = counts.messages > 0 ? at : null;
      await db
        .insert(lorawanIntegrationHours)
        .values({ integrationId, hour, messages: counts.messages, refused: counts.refused, lastAt })
        .onConflictDoUpdate({
          target: [lorawanIntegrationHours.integrationId, lorawanIntegrationHours.hour],
          set: {
            messages: sql`${lorawanIntegrationHours.messages} + ${counts.messages}`,
            refused: sql`${lorawanIntegrationHours.refused} + ${counts.refused}`,
            lastAt: sql`greatest(${lorawanIntegrationHours.lastAt}, ${lastAt}::timestamptz)`,
          },
        });
    },
    async dropHoursBefore(integrationId: string, before: Date): Promise<void> {
      await db
        .delete(lorawanIntegrationHours)
        .where(and(eq(lorawanIntegrationHours.integrationId, integrationId), lt(lorawanIntegrationHours.hour, before)));
    },
    hours(integrationId: string, since: Date) {
      return db
        .select()
        .from(lorawanIntegrationHours)
        .where(and(eq(lorawanIntegrationHours.integrationId, integrationId), gte(lorawanIntegrationHours.hour, since)))
        .orderBy(asc(lorawanIntegrationHours.hour));
    },
    /** The integration's last message with the right secret, from its hours (the newest one that has one). */
    async lastMessageAt(integrationId: string): Promise<Date | null> {
      const [row] = await db
        .select({ at: sql<Date | string | null>`max(${lorawanIntegrationHours.lastAt})` })
        .from(lorawanIntegrationHours)
        .where(eq(lorawanIntegrationHours.integrationId, integrationId));
      return row?.at ? new Date(row.at) : null;
    },
    async addRefusal(input: {
      integrationId: string;
      at: Date;
      reason: IntegrationRefusalReason;
      message: string;
      devEui: string | null;
    }): Promise<void> {
      await db.insert(lorawanIntegrationRefusals).values(input);
    },
    /** Keeps the integration's `keep` newest refusals: one bounded delete. */
    async trimRefusals(integrationId: string, keep: number): Promise<void> {
      await db.execute(sql`delete from ${lorawanIntegrationRefusals}
        where ${lorawanIntegrationRefusals.integrationId} = ${integrationId}
          and ${lorawanIntegrationRefusals.id} <= (
            select ${lorawanIntegrationRefusals.id} from ${lorawanIntegrationRefusals}
            where ${lorawanIntegrationRefusals.integrationId} = ${integrationId}
            order by ${lorawanIntegrationRefusals.id} desc offset ${keep} limit 1)`);
    },
    refusals(integrationId: string, limit: number) {
      return db
        .select()
        .from(lorawanIntegrationRefusals)
        .where(eq(lorawanIntegrationRefusals.integrationId, integrationId))
        .orderBy(desc(lorawanIntegrationRefusals.id))
        .limit(limit);
    },
  };
}

export type LorawanHealthDal = ReturnType<typeof createLorawanHealthDal>;
