import type { CreatePauseRequest, Pause, PauseListQuery } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { conflict, notFound } from '../../errors.ts';
import type { AlertEventRecord } from './alert-types.ts';
import { createPauseDal, type PauseRecord } from './pause-dal.ts';

const NNBSP = '\u202f';
const MISSING = 'Pause introuvable.';

const view = (record: PauseRecord): Pause => ({
  id: record.id,
  sensorId: record.sensorId,
  siteId: record.siteId,
  reason: record.reason,
  from: record.from.toISOString(),
  until: record.until.toISOString(),
  createdBy: record.createdBy,
});

/** « 14 h 30 », or « demain 0 h 40 », on the shop's clock. */
function clock(at: Date, now: Date, timeZone: string): string {
  const parts = (date: Date) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('fr-FR', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: 'numeric',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(date)
        .map((part) => [part.type, part.value]),
    );
  const then = parts(at);
  const today = parts(now);
  const time = `${Number(then['hour'])}${NNBSP}h${NNBSP}${then['minute']}`;
  return then['day'] === today['day'] && then['month'] === today['month'] ? time : `demain ${time}`;
}

/**
 * Pauses for planned work (docs/api.md, Pauses): a sensor, or every sensor of a site, for 24 h at
 * most. The rules keep evaluating and the alerts keep opening; the notifier holds their messages
 * until the pause ends (`pausedUntil`), and an alert still active then is told at once. The active
 * alerts of what is paused say so in their timeline.
 */
export function createPauseService(deps: {
  db: Database;
  now: () => Date;
  /** The sensor's site and its time zone (404 when it is not the organization's). */
  sensorSite: (organizationId: string, sensorId: string) => Promise<{ siteId: string; timeZone: string; name: string }>;
  /** The site's time zone and name (404 when it is not the organization's). */
  siteZone: (organizationId: string, siteId: string) => Promise<{ timeZone: string; name: string }>;
  appendEvent: (alertId: string, event: AlertEventRecord, key: string) => Promise<boolean>;
}) {
  const dal = createPauseDal(deps.db);
  return {
    /** Starts (or renews) the pause; also returns the name of what is paused, for the audit trail. */
    async start(organizationId: string, userId: string | null, body: CreatePauseRequest): Promise<{ pause: Pause; name: string }> {
      const from = deps.now();
      const until = new Date(from.getTime() + body.minutes * 60_000);
      const located = body.sensorId
        ? { sensorId: body.sensorId, ...(await deps.sensorSite(organizationId, body.sensorId)) }
        : { sensorId: null, siteId: body.siteId ?? '', ...(await deps.siteZone(organizationId, body.siteId ?? '')) };
      const record = await dal.start({
        organizationId,
        sensorId: located.sensorId,
        siteId: located.siteId,
        reason: body.reason.trim(),
        from,
        until,
        createdBy: userId,
      });
      const target = located.sensorId ? { sensorId: located.sensorId } : { siteId: located.siteId };
      const text = `${located.sensorId ? 'Capteur' : 'Magasin'} en pause jusqu’à ${clock(until, from, located.timeZone)}${NNBSP}: ${record.reason}. Les notifications attendent la fin de la pause.`;
      for (const alert of await dal.activeAlerts(organizationId, target))
        await deps.appendEvent(alert.id, { type: 'paused', at: from, userId, text }, `pause:${record.id}`);
      return { pause: view(record), name: located.name };
    },

    /** A sensor's pauses (its own and its site's) that overlap [from, to), oldest first: the monthly report lists them. */
    async during(organizationId: string, sensorId: string, siteId: string, from: Date, to: Date): Promise<Pause[]> {
      return (await dal.during(organizationId, sensorId, siteId, from, to)).map(view);
    },

    /**
     * The pauses going on now or, with `from` (and `to`, now by default), those that overlapped
     * [from, to], oldest first; with `sensorId`, those that held it (404 when it is not the organization's).
     */
    async list(organizationId: string, query: PauseListQuery = {}): Promise<Pause[]> {
      const now = deps.now();
      const from = query.from === undefined ? now : new Date(query.from);
      const to = query.from !== undefined && query.to !== undefined ? new Date(query.to) : now;
      const sensor = query.sensorId
        ? { sensorId: query.sensorId, siteId: (await deps.sensorSite(organizationId, query.sensorId)).siteId }
        : undefined;
      return (await dal.overlapping(organizationId, { from, to, toIncluded: true }, sensor)).map(view);
    },

    async get(organizationId: string, id: string): Promise<Pause> {
      const record = await dal.get(organizationId, id);
      if (!record) throw notFound(MISSING);
      return view(record);
    },

    /** Ends it now: what its alerts' notifications waited for leaves at the notifier's next turn. */
    async end(organizationId: string, id: string): Promise<Pause> {
      const record = await dal.get(organizationId, id);
      if (!record) throw notFound(MISSING);
      if (!(await dal.end(organizationId, id, deps.now()))) throw conflict('Cette pause est déjà terminée.');
      const target = record.sensorId ? { sensorId: record.sensorId } : { siteId: record.siteId ?? '' };
      await dal.replan((await dal.activeAlerts(organizationId, target)).map((alert) => alert.id));
      return view(record);
    },

    /** When the pause holding back an alert of this sensor (or its site) ends; null when none does now. */
    pausedUntil: (organizationId: string, sensorId: string | null, siteId: string | null, at: Date) =>
      dal.pausedUntil(organizationId, sensorId, siteId, at),
  };
}

export type PauseService = ReturnType<typeof createPauseService>;
