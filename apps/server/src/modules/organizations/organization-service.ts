import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import { createOrganizationDal, type OrganizationRecord } from './organization-dal.ts';

/** The name of the operators' own organization. */
export const OPERATORS_ORGANIZATION = 'Opérateurs Vigie';
/** How long a status is trusted from memory: another instance's suspension takes hold within it. */
const STATUS_TTL_MS = 5_000;

const newInstallationKey = () => `vik_${randomBytes(24).toString('base64url')}`;

/** Organizations and their installation key, the shared secret with which their devices install themselves. */
export function createOrganizationService(deps: { db: Database }) {
  const dal = createOrganizationDal(deps.db);
  const statuses = new Map<string, { status: 'active' | 'suspended' | 'erasing' | undefined; until: number }>();
  return {
    /** The organization of that name, created when none has it. */
    async ensure(name: string): Promise<OrganizationRecord> {
      const organization = await dal.ensure(name);
      if (!organization) throw new Error('Organisation introuvable après sa création.');
      return organization;
    },

    /** The operators' own organization (docs/api.md, Opérateur), never listed to them, never erased. */
    async ensureOperators(): Promise<OrganizationRecord> {
      const organization = await dal.ensureOperators(OPERATORS_ORGANIZATION);
      if (!organization) throw new Error('Organisation des opérateurs introuvable : ce nom est pris par une organisation cliente.');
      return organization;
    },

    /** The organization's status, kept 5 s in memory: read on each change a member asks for. */
    async status(id: string): Promise<'active' | 'suspended' | 'erasing' | undefined> {
      const now = Date.now();
      const kept = statuses.get(id);
      if (kept && kept.until > now) return kept.status;
      const status = await dal.status(id);
      if (statuses.size > 10_000) statuses.clear();
      statuses.set(id, { status, until: now + STATUS_TTL_MS });
      return status;
    },

    /** Forgets a status kept in memory (the operator changed it, here). */
    forgetStatus(id: string): void {
      statuses.delete(id);
    },

    findByName(name: string): Promise<OrganizationRecord | undefined> {
      return dal.findByName(name);
    },

    findById(id: string): Promise<OrganizationRecord | undefined> {
      return dal.findById(id);
    },

    /** The organization a device's installation key belongs to, if any. */
    findByInstallationKey(key: string): Promise<OrganizationRecord | undefined> {
      return dal.findByInstallationKey(key);
    },

    /** Whether the organization's admins must sign in with a second factor. */
    setRequireTotpForAdmins(id: string, requireTotpForAdmins: boolean): Promise<void> {
      return dal.setRequireTotpForAdmins(id, requireTotpForAdmins);
    },

    /** The organization's installation key, created on first use. */
    async installationKey(organizationId: string): Promise<string> {
      await dal.setInstallationKeyIfMissing(organizationId, newInstallationKey());
      const key = await dal.installationKey(organizationId);
      if (!key) throw notFound('Organisation introuvable.');
      return key;
    },

    /** A new key; the old one stops installing devices (devices already installed keep working). */
    async rotateInstallationKey(organizationId: string): Promise<string> {
      const key = newInstallationKey();
      await dal.setInstallationKey(organizationId, key);
      return key;
    },
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
