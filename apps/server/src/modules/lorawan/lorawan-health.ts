import type { IntegrationHealth, IntegrationRefusalReason } from '@vigie/contract';
import type { LorawanHealthDal } from './lorawan-health-dal.ts';

const HOUR_MS = 3_600_000;
/** The refused messages an integration's health lists. */
export const REFUSALS_KEPT = 50;
/** The refused messages are trimmed back to `REFUSALS_KEPT` every this many, by each instance. */
const TRIM_EVERY = 10;

const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/**
 * The health of each integration (docs/api.md, Santé d'une intégration), kept in the database so
 * that every instance adds to it: its messages hour by hour (one upsert per message) and its last
 * refused messages with their reason (one insert each, trimmed in batches).
 */
export function createLorawanHealth(deps: { dal: LorawanHealthDal; now: () => Date }) {
  const { dal } = deps;
  /** Refusals written by this instance since its last trim, by integration. */
  const sinceTrim = new Map<string, number>();
  /** The hour this instance last removed an integration's old hours. */
  const hoursTrimmed = new Map<string, number>();
  const bounded = <K, V>(map: Map<K, V>) => {
    if (map.size > 50_000) map.clear();
  };

  async function count(integrationId: string, counts: { messages: number; refused: number }): Promise<void> {
    const at = deps.now();
    const hour = hourOf(at);
    await dal.countHour(integrationId, hour, at, counts);
    if (hoursTrimmed.get(integrationId) !== hour.getTime()) {
      bounded(hoursTrimmed);
      hoursTrimmed.set(integrationId, hour.getTime());
      await dal.dropHoursBefore(integrationId, new Date(hour.getTime() - 24 * HOUR_MS));
    }
  }

  return {
    /** A message received with the right secret. */
    message: (integrationId: string) => count(integrationId, { messages: 1, refused: 0 }),

    /**
     * A message refused, or not stored: listed with its reason. `received`: it came with the right
     * secret, and is counted among the hour's messages as well (a call with a wrong secret is not).
     */
    async refused(
      integrationId: string,
      refusal: { reason: IntegrationRefusalReason; message: string; devEui: string | null },
      received: boolean,
    ): Promise<void> {
      await dal.addRefusal({ integrationId, at: deps.now(), ...refusal, message: refusal.message.slice(0, 300) });
      await count(integrationId, { messages: received ? 1 : 0, refused: 1 });
      const written = (sinceTrim.get(integrationId) ?? 0) + 1;
      bounded(sinceTrim);
      if (written >= TRIM_EVERY) {
        sinceTrim.set(integrationId, 0);
        await dal.trimRefusals(integrationId, REFUSALS_KEPT);
      } else sinceTrim.set(integrationId, written);
    },

    /** The last 24 hours, one entry per hour (oldest first), the last message and the last refusals. */
    async health(integrationId: string, lastEventAt: Date | null): Promise<IntegrationHealth> {
      const current = hourOf(deps.now()).getTime();
      const first = current - 23 * HOUR_MS;
      const rows = await dal.hours(integrationId, new Date(first));
      const byHour = new Map(rows.map((row) => [row.hour.getTime(), row]));
      const perHour = Array.from({ length: 24 }, (_, index) => {
        const hour = first + index * HOUR_MS;
        const row = byHour.get(hour);
        return { hour: new Date(hour).toISOString(), messages: row?.messages ?? 0, refused: row?.refused ?? 0 };
      });
      const last = await dal.lastMessageAt(integrationId);
      // The hours keep a day: an integration silent longer has its last activity on the integration itself.
      const lastMessageAt = last && (!lastEventAt || last > lastEventAt) ? last : lastEventAt;
      const refused = (await dal.refusals(integrationId, REFUSALS_KEPT)).map((row) => ({
        at: row.at.toISOString(),
        reason: row.reason,
        message: row.message,
        devEui: row.devEui,
      }));
      return { lastMessageAt: lastMessageAt?.toISOString() ?? null, perHour, refused };
    },
  };
}

export type LorawanHealth = ReturnType<typeof createLorawanHealth>;
