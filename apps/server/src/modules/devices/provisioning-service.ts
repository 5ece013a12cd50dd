import type { DeviceKind, ProvisionRequest, ProvisionResponse } from '@vigie/contract';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import { AppError, unauthorized } from '../../errors.ts';
import type { CredentialService } from './credential-service.ts';
import type { DeviceService } from './device-service.ts';
import type { OrganizationService } from '../organizations/organization-service.ts';

const DEFAULT_NAMES: Record<DeviceKind, string> = { emitter: 'Émetteur', sensor: 'Capteur' };

/**
 * Plug-and-play: a device installs itself with its organization's installation key and its
 * serial, and receives its token. Owns no table: it asks the organizations, devices and
 * credentials modules.
 */
export function createProvisioningService(deps: {
  organizations: Pick<OrganizationService, 'findByInstallationKey'>;
  credentials: Pick<CredentialService, 'issue'>;
  devices: Record<DeviceKind, DeviceService>;
  /** The site named at provisioning (id or name), created by that name when it does not exist yet. */
  siteNamed: (organizationId: string, reference: string) => Promise<string>;
  rateLimits: Pick<RateLimits, 'create'>;
}) {
  const { organizations, credentials, devices } = deps;
  // Wrong installation keys are guessed from somewhere: slow that place down.
  const wrongKeys = deps.rateLimits.create({ keyPrefix: 'provision-ip', points: 20, duration: 900 });

  return {
    /**
     * Installs a device by serial: the same serial again is the same device, with a new token;
     * a device of that serial in the trash comes back from it with its history.
     */
    async provision(input: ProvisionRequest, ip: string): Promise<ProvisionResponse> {
      // The attempt is taken before the key is looked up, in one step (keys sent at once cannot all
      // pass a check made before any of them is counted); a right key gives it back.
      try {
        await wrongKeys.consume(ip);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        throw new AppError(429, `Trop de clés d'installation invalides. Réessayez dans ${Math.ceil(seconds / 60)} min.`, {
          'retry-after': String(seconds),
        });
      }
      const organization = await organizations.findByInstallationKey(input.installationKey);
      if (!organization) throw unauthorized("Clé d'installation invalide : recopiez-la depuis la page Installation du tableau de bord.");
      await wrongKeys.reward(ip, 1);
      const service = devices[input.kind];
      const siteId = input.site === undefined ? undefined : await deps.siteNamed(organization.id, input.site);
      const found = await service.findBySerial(organization.id, input.serial);
      if (found?.deletedAt) await service.restore(organization.id, found.id);
      let device: { id: string } | undefined = found;
      const existing = device !== undefined;
      if (!device) {
        try {
          const created = await service.create(organization.id, {
            name: input.name ?? `${input.model ?? DEFAULT_NAMES[input.kind]} ${input.serial}`.slice(0, 100),
            serial: input.serial,
            model: input.model,
            inactivityTimeoutSeconds: input.inactivityTimeoutSeconds,
            siteId,
          });
          device = created.device;
        } catch (error) {
          // The same device announcing itself twice at once: the other request created it.
          if (!isUniqueViolation(error)) throw error;
          device = await service.findBySerial(organization.id, input.serial);
          if (!device) throw error;
        }
      }
      if ((input.inactivityTimeoutSeconds !== undefined || siteId !== undefined) && existing) {
        await service.update(organization.id, device.id, { inactivityTimeoutSeconds: input.inactivityTimeoutSeconds, siteId });
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
