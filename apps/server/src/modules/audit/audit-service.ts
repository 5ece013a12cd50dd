import { isIP } from 'node:net';
import { AUDIT_ACTION_LABELS, type AuditAction, type AuditEvent, type AuditQuery, type AuditSubjectType } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { badRequest } from '../../errors.ts';
import { csvField, csvLocalDateTime, csvText } from '../../lib/csv.ts';
import { startOfLocalDay } from '../../lib/local-time.ts';
import { type AuditFilter, type AuditRow, createAuditDal } from './audit-dal.ts';

/** Who did it: the signed-in person as named at that moment, and the address the request came from. */
export interface AuditActor {
  organizationId: string;
  user: { id: string; name: string | null; email: string } | null;
  ip: string | null;
}

export interface AuditSubject {
  type: AuditSubjectType;
  id: string;
  name: string | null;
}

export type AuditDetails = Record<string, unknown>;

const DEFAULT_PAGE = 100;
const CSV_PAGE = 1000;
const CSV_HEADER = [
  'Date (heure locale)',
  'Date (UTC)',
  'Action',
  'Auteur',
  'Adresse e-mail de l’auteur',
  'Objet',
  'Nom de l’objet',
  'Détails',
  'Adresse IP',
];
const SUBJECT_LABELS: Record<AuditSubjectType, string> = {
  sensor: 'Capteur',
  integration: 'Intégration LoRaWAN',
  emitter: 'Émetteur',
  site: 'Site',
  region: 'Région',
  rule: 'Règle d’alerte',
  alert: 'Alerte',
  member: 'Membre',
  invitation: 'Invitation',
  report: 'Rapport',
  organization: 'Organisation',
  task_template: 'Modèle de tâche',
  task: 'Tâche',
  process: 'Procédé',
  api_key: 'Clé d’API',
};

function validTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('fr-FR', { timeZone });
    return timeZone;
  } catch {
    throw badRequest(`Fuseau horaire inconnu « ${timeZone} » : un nom comme « Europe/Paris » est attendu.`);
  }
}

/** Where `day` (YYYY-MM-DD), plus some days, begins on the wall clock of `timeZone`; a day that does not exist is refused. */
function dayStart(day: string, timeZone: string, plusDays = 0): Date {
  const [year = 0, month = 0, date = 0] = day.split('-').map(Number);
  const exact = new Date(Date.UTC(year, month - 1, date));
  if (exact.getUTCFullYear() !== year || exact.getUTCMonth() !== month - 1 || exact.getUTCDate() !== date) {
    throw badRequest(`Date inconnue « ${day} » : une date du calendrier au format AAAA-MM-JJ est attendue.`);
  }
  const target = new Date(exact.getTime() + plusDays * 86_400_000);
  return new Date(startOfLocalDay(target.getUTCFullYear(), target.getUTCMonth() + 1, target.getUTCDate(), timeZone));
}

function toEvent(row: AuditRow): AuditEvent {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    action: row.action as AuditAction,
    actor: row.actorId && row.actorEmail ? { id: row.actorId, name: row.actorName, email: row.actorEmail } : null,
    subject:
      row.subjectType && row.subjectId ? { type: row.subjectType as AuditSubjectType, id: row.subjectId, name: row.subjectName } : null,
    details: row.details ?? null,
    ip: row.ip,
  };
}

/** A short French reading of the details, for the CSV (the screen reads them the same way). */
export function describeDetails(details: AuditDetails | null): string {
  if (!details) return '';
  return Object.entries(details)
    .map(([key, value]) => {
      if (value && typeof value === 'object' && 'from' in value && 'to' in value) {
        const change = value as { from: unknown; to: unknown };
        return `${key} : ${String(change.from ?? '—')} → ${String(change.to ?? '—')}`;
      }
      return `${key} : ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    })
    .join(' ; ');
}

/** Who an account is, as the trail names it; owned by the auth module, which keeps the users. */
export interface AuditAccount {
  id: string;
  organizationId: string;
  name: string | null;
  email: string;
}

export interface AuditAccounts {
  byId(id: string): Promise<AuditAccount | undefined>;
  /** The account of an address, in any letter case (an address signs in to one account). */
  byEmail(email: string): Promise<AuditAccount | undefined>;
}

/**
 * The audit trail (who did what and when). Lines are appended by the routes once a change is
 * made, and read by admins, filtered, a page at a time or as CSV. The database refuses to change
 * or delete a line.
 */
export function createAuditService(deps: { db: Database; now: () => Date; accounts: AuditAccounts }) {
  const dal = createAuditDal(deps.db);

  async function record(by: AuditActor, action: AuditAction, subject?: AuditSubject | null, details?: AuditDetails | null) {
    await dal.insert({
      organizationId: by.organizationId,
      at: deps.now(),
      action,
      actorId: by.user?.id ?? null,
      actorName: by.user?.name ?? null,
      actorEmail: by.user?.email ?? null,
      subjectType: subject?.type ?? null,
      subjectId: subject?.id ?? null,
      subjectName: subject?.name ?? null,
      details: details && Object.keys(details).length > 0 ? details : null,
      // Only an address is kept as one: never text that came from a header unchecked.
      ip: by.ip !== null && isIP(by.ip) !== 0 ? by.ip : null,
    });
  }

  /** What an account did outside a signed-in request (signing in, joining, resetting its password), filed in its organization. */
  async function byAccount(
    userId: string,
    ip: string | null,
    action: AuditAction,
    subject?: AuditSubject | null,
    details?: AuditDetails | null,
  ): Promise<void> {
    const account = await deps.accounts.byId(userId);
    if (!account) return;
    await record({ organizationId: account.organizationId, user: account, ip }, action, subject, details);
  }

  function filterOf(query: AuditQuery): AuditFilter {
    const timeZone = validTimeZone(query.tz ?? 'Europe/Paris');
    const from = query.from ? dayStart(query.from, timeZone) : undefined;
    const to = query.to ? dayStart(query.to, timeZone, 1) : undefined;
    if (from && to && from >= to) throw badRequest('Période invalide : le début doit précéder la fin.');
    return { action: query.action, actorId: query.actorId, q: query.q || undefined, from, to };
  }

  return {
    record,

    /** A signed-in person's action. */
    recordBy(user: { id: string; name: string | null; email: string; organization: { id: string } }, ip: string | null) {
      return (action: AuditAction, subject?: AuditSubject | null, details?: AuditDetails | null) =>
        record({ organizationId: user.organization.id, user, ip }, action, subject, details);
    },

    byAccount,

    /** A sign-in that worked: filed in the account's organization, by the account itself. */
    loginSucceeded(userId: string, ip: string, details?: AuditDetails): Promise<void> {
      return byAccount(userId, ip, 'auth.login', null, details);
    },

    /** Whether the account of this address completed a sign-in from `ip` at or after `since` (the owner's usual addresses). */
    async signedInFrom(email: string, ip: string, since: Date): Promise<boolean> {
      const account = await deps.accounts.byEmail(email);
      return account ? dal.signedInFrom(account, ip, since) : false;
    },

    /** A wrong password for a known address: filed with no author, the account as subject. Unknown addresses belong to nobody's trail. */
    async loginFailed(email: string, ip: string, details?: AuditDetails): Promise<void> {
      const account = await deps.accounts.byEmail(email);
      if (!account) return;
      await record(
        { organizationId: account.organizationId, user: null, ip },
        'auth.login_failed',
        { type: 'member', id: account.id, name: account.name ?? account.email },
        details,
      );
    },

    async page(organizationId: string, query: AuditQuery): Promise<{ events: AuditEvent[]; nextCursor: string | null }> {
      const limit = query.limit ?? DEFAULT_PAGE;
      const rows = await dal.page(organizationId, filterOf(query), limit, query.cursor === undefined ? undefined : Number(query.cursor));
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      return { events: shown.map(toEvent), nextCursor: rows.length > limit && last ? String(last.id) : null };
    },

    /** The filtered trail as CSV for a spreadsheet (UTF-8 with BOM, « ; »), a page at a time. */
    async *csv(organizationId: string, query: AuditQuery): AsyncGenerator<string> {
      const filter = filterOf(query);
      const local = csvLocalDateTime(validTimeZone(query.tz ?? 'Europe/Paris'));
      yield `\uFEFF${CSV_HEADER.map(csvField).join(';')}\r\n`;
      let before: number | undefined;
      for (;;) {
        const rows = await dal.page(organizationId, filter, CSV_PAGE, before);
        const shown = rows.slice(0, CSV_PAGE);
        yield shown
          .map((row) => {
            const event = toEvent(row);
            // Every cell is neutralised, not only those typed as names: an e-mail address, a stored
            // action or an address read from a header may start like a formula as well.
            return [
              local(row.at),
              event.at,
              AUDIT_ACTION_LABELS[event.action] ?? event.action,
              event.actor ? (event.actor.name ?? event.actor.email) : null,
              event.actor?.email ?? null,
              event.subject ? SUBJECT_LABELS[event.subject.type] : null,
              event.subject?.name ?? null,
              describeDetails(event.details),
              event.ip,
            ]
              .map((cell) => csvField(csvText(cell)))
              .join(';')
              .concat('\r\n');
          })
          .join('');
        const last = shown.at(-1);
        if (rows.length <= CSV_PAGE || !last) return;
        before = last.id;
      }
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
