import {
  OPERATOR_ERASURE_DAYS,
  type CreateOperatorOrganizationRequest,
  type OperatorOrganization,
  type UpdateOperatorOrganizationRequest,
} from '@vigie/contract';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import type { Database } from '../../db/database.ts';
import { eraseOrganizationData, organizationsUsage, type OrganizationUsage } from '../../db/organization-data.ts';
import { conflict, notFound } from '../../errors.ts';
import type { Inviter } from '../members/invitation-service.ts';
import { createOperatorDal, type ClientOrganizationRow } from './operator-dal.ts';

/** Who acts: the signed-in operator. */
export interface Operator {
  id: string;
  name: string | null;
  email: string;
}

export const OPERATOR_MESSAGES = {
  notFound: 'Organisation introuvable.',
  nameTaken: (name: string) => `Une organisation s’appelle déjà « ${name} ».`,
};

/** How long consumption figures are served from memory. */
const USAGE_TTL_MS = 10_000;
/** An erasure taken up by an instance that stopped midway is taken up again after this long. */
const ERASURE_STALE_MS = 15 * 60_000;
const NO_USAGE: OrganizationUsage = { sensors: 0, members: 0, readingsThisMonth: 0, smsThisMonth: 0 };

/** The first day of the month (UTC) of a moment. */
const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/**
 * The operator's handling of the client organizations (docs/api.md, Opérateur): list with their
 * consumption, creation with the invitation of a first admin, suspension, plan and quotas,
 * erasure scheduled 30 days ahead then done by a job; each action in the operator's audit trail.
 */
export function createOperatorService(deps: {
  db: Database;
  now: () => Date;
  /** Invites the first admin of a new organization (the members module's invitations). */
  invite(inviter: Inviter, input: { email: string; role: 'admin' }): Promise<unknown>;
  /** Whether an address already has an account. */
  hasAccount(email: string): Promise<boolean>;
  /** The organization's status changed: forget what memory kept of it. */
  statusChanged(organizationId: string): void;
}) {
  const dal = createOperatorDal(deps.db);
  let usage: { at: number; figures: Map<string, OrganizationUsage> } | undefined;

  async function currentUsage(): Promise<Map<string, OrganizationUsage>> {
    const now = Date.now();
    if (!usage || now - usage.at > USAGE_TTL_MS) {
      usage = { at: now, figures: await organizationsUsage(deps.db, monthStart(deps.now())) };
    }
    return usage.figures;
  }

  const view = (row: ClientOrganizationRow, figures: OrganizationUsage = NO_USAGE): OperatorOrganization => ({
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
    erasesAt: row.erasesAt ? row.erasesAt.toISOString() : null,
    plan: row.plan,
    quotas: { sensors: row.quotaSensors, members: row.quotaMembers, smsPerMonth: row.quotaSmsPerMonth },
    usage: figures,
  });

  async function viewOne(row: ClientOrganizationRow): Promise<OperatorOrganization> {
    // A fresh figure for one organization just changed: the list may keep its own 10 s.
    usage = undefined;
    return view(row, (await currentUsage()).get(row.id));
  }

  const record = (
    operator: Operator | null,
    action: string,
    organization: { id: string; name: string },
    details?: Record<string, unknown>,
  ) =>
    dal.record({
      at: deps.now(),
      operatorId: operator?.id ?? null,
      operatorEmail: operator?.email ?? null,
      action,
      organizationId: organization.id,
      organizationName: organization.name,
      details: details ?? null,
    });

  return {
    async list(): Promise<OperatorOrganization[]> {
      const [rows, figures] = await Promise.all([dal.list(), currentUsage()]);
      return rows.map((row) => view(row, figures.get(row.id)));
    },

    async create(operator: Operator, input: CreateOperatorOrganizationRequest): Promise<OperatorOrganization> {
      if (await deps.hasAccount(input.adminEmail)) throw conflict(`Un compte existe déjà avec l’adresse ${input.adminEmail}.`);
      let row: ClientOrganizationRow | undefined;
      try {
        row = await dal.create({ name: input.name, plan: input.plan ?? null, quotas: input.quotas });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(OPERATOR_MESSAGES.nameTaken(input.name));
        throw error;
      }
      if (!row) throw conflict(OPERATOR_MESSAGES.nameTaken(input.name));
      await deps.invite(
        { id: operator.id, name: operator.name, email: operator.email, organization: { id: row.id, name: row.name } },
        { email: input.adminEmail, role: 'admin' },
      );
      await record(operator, 'organization.created', row, { adminEmail: input.adminEmail, plan: row.plan, quotas: input.quotas ?? null });
      return viewOne(row);
    },

    async update(operator: Operator, id: string, changes: UpdateOperatorOrganizationRequest): Promise<OperatorOrganization> {
      const before = await dal.find(id);
      if (!before) throw notFound(OPERATOR_MESSAGES.notFound);
      const row = await dal.update(id, changes, deps.now());
      if (!row) throw notFound(OPERATOR_MESSAGES.notFound);
      deps.statusChanged(id);
      const action =
        changes.status === 'active' && before.status === 'erasing'
          ? 'organization.erasure-cancelled'
          : changes.status === 'suspended' && before.status !== 'suspended'
            ? 'organization.suspended'
            : changes.status === 'active' && before.status === 'suspended'
              ? 'organization.reactivated'
              : 'organization.updated';
      await record(operator, action, row, { ...changes });
      return viewOne(row);
    },

    async scheduleErasure(operator: Operator, id: string): Promise<OperatorOrganization> {
      const now = deps.now();
      const row = await dal.scheduleErasure(id, new Date(now.getTime() + OPERATOR_ERASURE_DAYS * 86_400_000), now);
      if (!row) throw notFound(OPERATOR_MESSAGES.notFound);
      deps.statusChanged(id);
      await record(operator, 'organization.erasure-scheduled', row, { erasesAt: row.erasesAt?.toISOString() });
      return viewOne(row);
    },

    /**
     * The erasures that are due, each by one instance: every row of the organization deleted in
     * batches, then its row with the operator's audit entry (who asked, when, how many rows).
     * Returns the organizations erased by this call.
     */
    async eraseDue(): Promise<string[]> {
      const erased: string[] = [];
      for (;;) {
        const now = deps.now();
        const claimed = await dal.claimDueErasure(now, new Date(now.getTime() - ERASURE_STALE_MS));
        if (!claimed) return erased;
        const asked = (await dal.audit(claimed.id)).filter((entry) => entry.action === 'organization.erasure-scheduled').at(-1);
        const counts = await eraseOrganizationData(deps.db, claimed.id);
        const rows = Object.values(counts).reduce((sum, n) => sum + n, 0) + 1;
        const done = await dal.deleteErased(claimed.id, {
          at: deps.now(),
          operatorId: asked?.operatorId ?? null,
          operatorEmail: asked?.operatorEmail ?? null,
          action: 'organization.erased',
          organizationId: claimed.id,
          organizationName: claimed.name,
          details: { rows, tables: counts, askedAt: asked?.at.toISOString() ?? null },
        });
        if (done) erased.push(claimed.id);
        deps.statusChanged(claimed.id);
      }
    },

    /** The operator's audit trail of an organization (erased ones included). */
    audit: (organizationId: string) => dal.audit(organizationId),
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
