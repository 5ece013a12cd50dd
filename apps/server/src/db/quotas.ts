import { sql } from 'drizzle-orm';
import { conflict } from '../errors.ts';
import { rowsOf, type Database, type Transaction } from './database.ts';

/**
 * Quotas of a client organization (docs/api.md, Opérateur), held inside the transaction that
 * creates: the organization's row is locked (`for update`) before counting, so that parallel
 * creations queue behind one another and none counts past the quota.
 */
export type QuotaKind = 'sensors' | 'members';

const COLUMN: Record<QuotaKind, string> = { sensors: 'quota_sensors', members: 'quota_members' };

export const QUOTA_MESSAGES = {
  sensors: (quota: number) =>
    `Quota de capteurs atteint (${quota}) : l’organisation ne peut pas avoir plus de capteurs. Contactez l’opérateur.`,
  members: (quota: number) =>
    `Quota de membres atteint (${quota}) : l’organisation ne peut pas avoir plus de membres. Contactez l’opérateur.`,
  sms: (quota: number) => `Quota de SMS du mois atteint (${quota}) : SMS et appels ne sont plus envoyés jusqu’au mois prochain.`,
};

/**
 * Locks the organization's row and refuses (409) when one more `kind` would pass its quota;
 * call it first in the transaction that creates. Members count the accounts and the pending
 * invitations (not expired at `now`, the app's clock where the caller has it); sensors, those outside the trash.
 */
export async function holdQuota(
  tx: Transaction | Database,
  organizationId: string,
  kind: QuotaKind,
  now: Date = new Date(),
): Promise<void> {
  const [row] = await rowsOf<{ quota: number | null }>(
    tx as Database,
    sql`select ${sql.raw(COLUMN[kind])} as quota from organizations where id = ${organizationId} for update`,
  );
  const quota = row?.quota;
  if (quota === null || quota === undefined) return;
  const count =
    kind === 'sensors'
      ? sql`select count(*)::int as n from sensors where organization_id = ${organizationId} and deleted_at is null`
      : sql`select ((select count(*) from users where organization_id = ${organizationId})
              + (select count(*) from invitations where organization_id = ${organizationId} and accepted_at is null and revoked_at is null and expires_at > ${now.toISOString()}))::int as n`;
  const [counted] = await rowsOf<{ n: number }>(tx as Database, count);
  if (Number(counted?.n ?? 0) >= quota) throw conflict(QUOTA_MESSAGES[kind](quota));
}
