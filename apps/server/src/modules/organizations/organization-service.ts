import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import { createOrganizationDal, type OrganizationRecord } from './organization-dal.ts';

const newInstallationKey = () => `vik_${randomBytes(24).toString('base64url')}`;

/** Organizations and their installation key, the shared secret with which their devices install themselves. */
export function createOrganizationService(deps: { db: Database }) {
  const dal = createOrganizationDal(deps.db);
  return {
    /** The organization of that name, created when none has it. */
    async ensure(name: string): Promise<OrganizationRecord> {
      const organization = await dal.ensure(name);
      if (!organization) throw new Error('Organisation introuvable après sa création.');
      return organization;
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
