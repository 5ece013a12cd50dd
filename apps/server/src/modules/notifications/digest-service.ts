import { DIGEST_HOUR, type Digest, type MemberScope } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import type { AlertRecord } from '../alerts/alert-types.ts';
import { type AlertContext, describeLimit, formatClock, formatDuration, formatMeasure } from './alert-message.ts';
import { createDigestDal } from './digest-dal.ts';
import type { OneEmail } from './notification-service.ts';
import { localTime } from './on-call-rota.ts';

/** The narrow no-break space before « : », as on the screens. */
const NBSP = '\u202f';
const DAY_MS = 86_400_000;
const DEFAULT_TIME_ZONE = 'Europe/Paris';

/** The UTC instant of a calendar day's local midnight in a time zone (two corrections cover any offset change). */
export function localMidnight(day: string, timeZone: string): Date {
  const target = Date.parse(`${day}T00:00:00Z`);
  let at = target;
  for (let i = 0; i < 2; i += 1) {
    const local = localTime(new Date(at), timeZone);
    at -= Date.parse(`${local.day}T00:00:00Z`) + local.minutes * 60_000 - target;
  }
  return new Date(at);
}

const DAY_NAMES = new Map<string, Intl.DateTimeFormat>();
/** « jeudi 26 novembre ». */
function dayName(day: string): string {
  let format = DAY_NAMES.get('fr');
  if (!format)
    DAY_NAMES.set('fr', (format = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })));
  return format.format(new Date(`${day}T12:00:00Z`));
}

const isForecast = (context: AlertContext) =>
  context.condition?.type === 'predicted_above' || context.condition?.type === 'predicted_below';

/** What an alert of the digest was about. */
function alertKind(alert: AlertRecord, context: AlertContext): string {
  if (isForecast(context)) return 'Dépassement prévu';
  if (alert.key === null) return 'Hors ligne';
  if (alert.key === 'battery') return 'Batterie faible';
  return `Hors limites (${describeLimit(context.condition)})`;
}

/** One line of the digest: when, which unit, what, how far, and how it ended. */
export function digestLine(alert: AlertRecord, context: AlertContext, dayEnd: Date, timeZone: string): string {
  const parts = [formatClock(alert.openedAt, timeZone), context.sensorName, alertKind(alert, context)];
  if (alert.peak !== null && alert.key !== null && !isForecast(context)) parts.push(`pic ${formatMeasure(alert.key, alert.peak)}`);
  if (alert.resolvedAt && alert.resolvedAt.getTime() < dayEnd.getTime()) {
    parts.push(
      `close à ${formatClock(alert.resolvedAt, timeZone)} (${formatDuration(alert.resolvedAt.getTime() - alert.openedAt.getTime())})`,
    );
  } else if (alert.resolvedAt) {
    parts.push('close ce matin');
  } else {
    parts.push(alert.status === 'acknowledged' ? 'toujours active, prise en compte' : 'toujours active, pas encore prise en compte');
  }
  return `• ${parts.join(' — ')}`;
}

/**
 * The daily digest (docs/api.md, Résumé quotidien): each morning from DIGEST_HOUR on the clock of
 * the person's first shop, one e-mail per person who asks for it with yesterday's alerts in the
 * shops of their scope; once a day, across instances (the day is claimed, the outbox keys it).
 */
export function createDigestService(deps: {
  db: Database;
  now: () => Date;
  publicUrl: string;
  alertsDuring: (organizationId: string, from: Date, to: Date) => Promise<AlertRecord[]>;
  describe: (alert: AlertRecord) => Promise<AlertContext>;
  members: (organizationId: string) => Promise<{ id: string; email: string; scope: MemberScope | null }[]>;
  covering: <T extends { scope: MemberScope | null }>(organizationId: string, siteId: string | null, people: readonly T[]) => Promise<T[]>;
  sites: (organizationId: string) => Promise<{ id: string; name: string; timezone: string }[]>;
  sendEmail: (message: OneEmail) => Promise<boolean>;
}) {
  const dal = createDigestDal(deps.db);
  const digest = (enabled: boolean): Digest => ({ enabled, hour: DIGEST_HOUR });

  /** Yesterday's e-mail for one person, or null when it is not yet time where their shops are. */
  async function compose(
    organizationId: string,
    person: { id: string; email: string; scope: MemberScope | null },
    now: Date,
  ): Promise<{ day: string; message: OneEmail } | null> {
    const sites = [];
    for (const site of await deps.sites(organizationId)) {
      if ((await deps.covering(organizationId, site.id, [person])).length > 0) sites.push(site);
    }
    const timeZone = sites[0]?.timezone ?? DEFAULT_TIME_ZONE;
    const local = localTime(now, timeZone);
    if (local.minutes < DIGEST_HOUR * 60) return null;
    const today = local.day;
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
    const from = localMidnight(yesterday, timeZone);
    const to = localMidnight(today, timeZone);
    const mine = new Set(sites.map((site) => site.id));
    const alerts = (await deps.alertsDuring(organizationId, from, to)).filter((alert) => alert.siteId !== null && mine.has(alert.siteId));
    const bySite = new Map<string, string[]>();
    for (const alert of alerts) {
      const lines = bySite.get(alert.siteId ?? '') ?? [];
      lines.push(digestLine(alert, await deps.describe(alert), to, timeZone));
      bySite.set(alert.siteId ?? '', lines);
    }
    const count = alerts.length;
    const subject = `Résumé d’hier, ${dayName(yesterday)}${NBSP}: ${count === 0 ? 'aucune alerte' : count === 1 ? '1 alerte' : `${count} alertes`}`;
    const sections = sites
      .filter((site) => bySite.has(site.id))
      .map((site) => [`${site.name}${NBSP}:`, ...(bySite.get(site.id) ?? [])].join('\n'));
    const text = [
      count === 0
        ? `Aucune alerte hier, ${dayName(yesterday)}, dans ${sites.length > 1 ? `vos ${sites.length} magasins` : 'votre magasin'}.`
        : `Les alertes d’hier, ${dayName(yesterday)}, dans ${sites.length > 1 ? 'vos magasins' : 'votre magasin'} (heures du magasin)${NBSP}:`,
      ...sections,
      `Toutes les alertes${NBSP}: ${deps.publicUrl}/dashboard/alertes`,
      `Pour ne plus recevoir ce résumé${NBSP}: ${deps.publicUrl}/dashboard/compte`,
    ].join('\n\n');
    return {
      day: today,
      message: { organizationId, to: person.email, subject, text, idempotencyKey: `digest:${person.id}:${today}` },
    };
  }

  return {
    async get(userId: string): Promise<Digest> {
      return digest(await dal.enabled(userId));
    },

    async set(userId: string, organizationId: string, enabled: boolean): Promise<Digest> {
      await dal.set(userId, organizationId, enabled, deps.now());
      return digest(enabled);
    },

    /** Queues the digests due now; the number queued. Run every hour; a day's digest leaves once. */
    async run(): Promise<number> {
      const now = deps.now();
      const byOrganization = new Map<string, { userId: string; lastDay: string | null }[]>();
      for (const row of await dal.subscribers()) {
        const list = byOrganization.get(row.organizationId) ?? [];
        list.push(row);
        byOrganization.set(row.organizationId, list);
      }
      let queued = 0;
      for (const [organizationId, rows] of byOrganization) {
        const members = new Map((await deps.members(organizationId)).map((member) => [member.id, member]));
        for (const row of rows) {
          const person = members.get(row.userId);
          if (!person) continue;
          const composed = await compose(organizationId, person, now);
          if (!composed || composed.day === row.lastDay) continue;
          // Queued first (its key makes a second queueing a no-op), then the day is claimed.
          await deps.sendEmail(composed.message);
          if (await dal.claimDay(row.userId, composed.day)) queued += 1;
        }
      }
      return queued;
    },
  };
}

export type DigestService = ReturnType<typeof createDigestService>;
