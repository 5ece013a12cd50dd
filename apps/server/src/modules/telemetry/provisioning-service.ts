import { randomBytes } from 'node:crypto';
import type { DeviceKind, ProvisionRequest, ProvisionResponse } from '@vigie/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import type { Database } from '../../db/database.ts';
import { organizations } from '../../db/schema.ts';
import { AppError, notFound, unauthorized } from '../../errors.ts';
import type { DeviceService } from '../devices/device-service.ts';
import type { DeviceCredentials } from './device-credentials.ts';

const newInstallationKey = () => `vik_${randomBytes(24).toString('base64url')}`;

const DEFAULT_NAMES: Record<DeviceKind, string> = { emitter: 'Émetteur', sensor: 'Capteur' };

/** Plug-and-play: the organization's installation key, self-provisioning, device tokens. */
export function createProvisioningService(deps: {
  db: Database;
  credentials: DeviceCredentials;
  devices: Record<DeviceKind, DeviceService>;
}) {
  const { db, credentials, devices } = deps;
  // Wrong installation keys are guessed from somewhere: slow that place down.
  const wrongKeys = new RateLimiterMemory({ keyPrefix: 'provision-ip', points: 20, duration: 900 });

  async function organizationByKey(key: string) {
    const [row] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.installationKey, key)).limit(1);
    return row;
  }

  return {
    async installationKey(organizationId: string): Promise<string> {
      // Created on first use; the condition keeps two concurrent first uses from overwriting each other.
      await db
        .update(organizations)
        .set({ installationKey: newInstallationKey() })
        .where(and(eq(organizations.id, organizationId), isNull(organizations.installationKey)));
      const [row] = await db.select({ key: organizations.installationKey }).from(organizations).where(eq(organizations.id, organizationId));
      if (!row?.key) throw notFound('Organisation introuvable.');
      return row.key;
    },

    async rotateInstallationKey(organizationId: string): Promise<string> {
      const key = newInstallationKey();
      await db.update(organizations).set({ installationKey: key }).where(eq(organizations.id, organizationId));
      return key;
    },

    /**
     * Installs a device by serial: the same serial again is the same device, with a new token;
     * a device of that serial in the trash comes back from it with its history.
     */
    async provision(input: ProvisionRequest, ip: string): Promise<ProvisionResponse> {
      const blocked = await wrongKeys.get(ip);
      if (blocked && blocked.consumedPoints >= 20) {
        const seconds = Math.max(1, Math.ceil(blocked.msBeforeNext / 1000));
        throw new AppError(429, `Trop de clés d'installation invalides. Réessayez dans ${Math.ceil(seconds / 60)} min.`, {
          'retry-after': String(seconds),
        });
      }
      const organization = await organizationByKey(input.installationKey);
      if (!organization) {
        await wrongKeys.consume(ip).catch((error: unknown) => {
          if (!(error instanceof RateLimiterRes)) throw error;
        });
        throw unauthorized("Clé d'installation invalide : recopiez-la depuis la page Installation du tableau de bord.");
      }
      const service = devices[input.kind];
      const found = await service.dal.findBySerial(organization.id, input.serial);
      if (found?.deletedAt) await service.restore(organization.id, found.id);
      let device: { id: string } | undefined = found;
      const existing = device !== undefined;
      if (!device) {
        try {
          device = await service.create(organization.id, {
            name: input.name ?? `${input.model ?? DEFAULT_NAMES[input.kind]} ${input.serial}`.slice(0, 100),
            serial: input.serial,
            model: input.model,
            inactivityTimeoutSeconds: input.inactivityTimeoutSeconds,
          });
        } catch (error) {
          // The same device announcing itself twice at once: the other request created it.
          if (!isUniqueViolation(error)) throw error;
          device = await service.dal.findBySerial(organization.id, input.serial);
          if (!device) throw error;
        }
      }
      if (input.inactivityTimeoutSeconds !== undefined && existing) {
        await service.update(organization.id, device.id, { inactivityTimeoutSeconds: input.inactivityTimeoutSeconds });
      }
      const accessToken = await credentials.issue({ deviceId: device.id, kind: input.kind, organizationId: organization.id });
      return { deviceId: device.id, kind: input.kind, accessToken };
    },

    /** A new token for a device of the organization; the previous one stops working. */
    async rotateDeviceToken(organizationId: string, kind: DeviceKind, deviceId: string): Promise<string> {
      await devices[kind].get(organizationId, deviceId);
      return credentials.issue({ deviceId, kind, organizationId });
    },
  };
}

export type ProvisioningService = ReturnType<typeof createProvisioningService>;
