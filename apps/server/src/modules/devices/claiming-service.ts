import { createHash } from 'node:crypto';
import {
  type ClaimProvisionRequest,
  type CreateRuleRequest,
  type DeviceKind,
  type FactoryDevice,
  INSTALL_USES,
  installUseRule,
  type InstallUseKey,
  type ProvisionResponse,
} from '@vigie/contract';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';
import type { CredentialService } from './credential-service.ts';
import type { DeviceService, DeviceView } from './device-service.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { createFactoryDeviceDal, type FactoryDeviceRecord } from './factory-device-dal.ts';

export const UNKNOWN_DEVICE = 'Appareil introuvable : vérifiez le numéro de série et le code de l’étiquette.';
export const EMITTER_HAS_NO_RULE =
  'Cet appareil est un émetteur : il ne mesure rien lui-même et ne reçoit pas de règle d’alerte. Choisissez « Autre mesure, sans alerte ».';
const DEFAULT_NAMES: Record<DeviceKind, string> = { emitter: 'Émetteur', sensor: 'Capteur' };
const WINDOW_SECONDS = 900;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Loads a maker's batch: serials not known yet are added with their code hashed; a known serial
 * is left exactly as it is.
 */
export async function importFactoryBatch(db: Database, devices: FactoryDevice[]): Promise<{ added: string[]; unchanged: string[] }> {
  const dal = createFactoryDeviceDal(db);
  const known = new Set(await dal.existing(devices.map((device) => device.serial)));
  const rows = await Promise.all(
    devices
      .filter((device) => !known.has(device.serial))
      .map(async (device) => ({
        serial: device.serial,
        kind: device.kind,
        model: device.model ?? null,
        claimCodeHash: await hashPassword(device.claimCode),
      })),
  );
  const added = new Set(await dal.insertNew(rows));
  return {
    added: devices.filter((device) => added.has(device.serial)).map((device) => device.serial),
    unchanged: devices.filter((device) => !added.has(device.serial)).map((device) => device.serial),
  };
}

/**
 * Plug-and-play for factory devices (docs/api.md, Rattachement des appareils d'usine): a maker's batch is imported, a person claims a
 * device with the code of its label, and the device, asking with the same code, receives its
 * token. Owns the factory_devices table; devices, tokens, sites and rules are asked of their modules.
 */
export function createClaimingService(deps: {
  db: Database;
  devices: Record<DeviceKind, Pick<DeviceService, 'create' | 'findBySerial' | 'restore' | 'get' | 'update'>>;
  credentials: Pick<CredentialService, 'issue'>;
  assertSite: (organizationId: string, siteId: string) => Promise<void>;
  createRule: (organizationId: string, rule: CreateRuleRequest) => Promise<unknown>;
  /** How many alert rules watch this sensor. */
  ruleCount: (organizationId: string, sensorId: string) => Promise<number>;
  now?: () => Date;
  rateLimits: Pick<RateLimits, 'create'>;
}) {
  const dal = createFactoryDeviceDal(deps.db);
  const now = deps.now ?? (() => new Date());
  // Codes are guessed from somewhere, by someone: slow both down.
  const wrongByIp = deps.rateLimits.create({ keyPrefix: 'claim-ip', points: 20, duration: WINDOW_SECONDS });
  const wrongByUser = deps.rateLimits.create({ keyPrefix: 'claim-user', points: 10, duration: WINDOW_SECONDS });
  // A waiting device asks every few seconds: a code verified once is not hashed again each time.
  const verified = new Map<string, string>();

  /**
   * Takes one attempt for `key` before the code is compared, counted and compared in one step
   * (codes sent at once cannot all pass a check made before any of them is counted); 429 once the
   * window's attempts are used up, even for the right code, so that a guess past the limit tells
   * nothing. A right code gives its attempt back.
   */
  async function takeAttempt(limiter: RateLimiterAbstract, key: string): Promise<() => Promise<void>> {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new AppError(429, `Trop de codes d’étiquette invalides. Réessayez dans ${Math.ceil(seconds / 60)} min.`, {
        'retry-after': String(seconds),
      });
    }
    return async () => {
      await limiter.reward(key, 1);
    };
  }

  /** The factory device whose label this is, or undefined (unknown serial and wrong code alike). */
  async function labelled(serial: string, claimCode: string): Promise<FactoryDeviceRecord | undefined> {
    const record = await dal.find(serial);
    const fingerprint = sha256(`${serial}\n${claimCode}`);
    if (!record) {
      // As long as a wrong code: the answer's timing does not tell which serials exist.
      await hashPassword(claimCode);
      return undefined;
    }
    if (verified.get(serial) === fingerprint) return record;
    if (!(await verifyPassword(record.claimCodeHash, claimCode))) return undefined;
    if (verified.size > 10_000) verified.clear();
    verified.set(serial, fingerprint);
    return record;
  }

  async function deviceOf(record: FactoryDeviceRecord, organizationId: string) {
    return deps.devices[record.kind].findBySerial(organizationId, record.serial);
  }

  /**
   * The factory device of this label, when this organization may claim it: a wrong code, an
   * unknown serial and another organization's device are the same 404, counted against the
   * account and the address (429 once either has guessed too often). The claim and its check both
   * ask here, so that they never disagree and share one count.
   */
  async function claimableLabel(
    who: { organizationId: string; userId: string },
    label: { serial: string; claimCode: string },
    ip: string,
  ): Promise<FactoryDeviceRecord> {
    const giveBackUser = await takeAttempt(wrongByUser, who.userId);
    let giveBackIp: () => Promise<void>;
    try {
      giveBackIp = await takeAttempt(wrongByIp, ip);
    } catch (error) {
      await giveBackUser();
      throw error;
    }
    const record = await labelled(label.serial, label.claimCode);
    if (!record || (record.organizationId !== null && record.organizationId !== who.organizationId)) throw notFound(UNKNOWN_DEVICE);
    await Promise.all([giveBackUser(), giveBackIp()]);
    return record;
  }

  /**
   * A device this organization claimed before: 409 while it is installed; in the trash or purged,
   * it may be claimed again (the one in the trash is returned, to be restored).
   */
  async function notInstalledYet(record: FactoryDeviceRecord, organizationId: string) {
    const existing = await deviceOf(record, organizationId);
    if (existing && !existing.deletedAt) {
      const { device } = await deps.devices[record.kind].get(organizationId, existing.id);
      throw conflict(`Cet appareil est déjà installé dans votre organisation (« ${device.name} »).`);
    }
    return existing;
  }

  return {
    /** A maker's batch, all or nothing (`npm run devices:import`, through the running server's local channel). */
    importBatch: (devices: FactoryDevice[]) => importFactoryBatch(deps.db, devices),

    /** A person claims the labelled device for their organization; its rule comes with it. */
    async claim(
      who: { organizationId: string; userId: string },
      input: {
        serial: string;
        claimCode: string;
        siteId?: string | undefined;
        name?: string | undefined;
        preset?: InstallUseKey | undefined;
      },
      ip: string,
    ): Promise<DeviceView> {
      const { organizationId, userId } = who;
      const record = await claimableLabel(who, input, ip);
      const use = input.preset ? INSTALL_USES[input.preset] : undefined;
      if (use?.rule && record.kind === 'emitter') throw badRequest(EMITTER_HAS_NO_RULE);
      if (input.siteId) await deps.assertSite(organizationId, input.siteId);
      const service = deps.devices[record.kind];

      let view: DeviceView | undefined;
      if (record.organizationId === organizationId) {
        const existing = await notInstalledYet(record, organizationId);
        // In the trash: claiming it again brings it back, history included. Purged: it starts afresh.
        if (existing) view = await service.restore(organizationId, existing.id);
        else await dal.release(record.serial, organizationId);
      }
      const created = view === undefined;
      if (!view) {
        if (!(await dal.claim(record.serial, organizationId, userId, now()))) {
          // Another claim got there first.
          const winner = await dal.find(record.serial);
          if (winner?.organizationId === organizationId) throw conflict('Cet appareil vient d’être installé dans votre organisation.');
          throw notFound(UNKNOWN_DEVICE);
        }
        try {
          view = await service.create(organizationId, {
            name: input.name ?? `${record.model ?? DEFAULT_NAMES[record.kind]} ${record.serial}`.slice(0, 100),
            serial: record.serial,
            model: record.model ?? undefined,
            siteId: input.siteId,
          });
        } catch (error) {
          // A device of that serial was already installed with the installation key: it is the one.
          const existing = isUniqueViolation(error) ? await deviceOf(record, organizationId) : undefined;
          if (!existing) {
            await dal.release(record.serial, organizationId);
            throw error;
          }
          view = existing.deletedAt ? await service.restore(organizationId, existing.id) : await service.get(organizationId, existing.id);
        }
        await dal.link(record.serial, organizationId, view.device.id);
      }
      // A device that already existed takes the name and the site chosen now.
      if (!created && (input.name !== undefined || input.siteId !== undefined)) {
        view = await service.update(organizationId, view.device.id, { name: input.name, siteId: input.siteId });
      }
      // Its rule comes with it, unless a device brought back already has rules of its own.
      const rule = input.preset ? installUseRule(input.preset, view.device.id) : null;
      if (rule && (created || (await deps.ruleCount(organizationId, view.device.id)) === 0)) await deps.createRule(organizationId, rule);
      return view;
    },

    /**
     * The label read before the device's name, site and use are chosen: the device it names, or
     * the very refusal its claim would get (404, 409, 429), its wrong codes counted with the
     * claim's. Nothing is claimed, released or restored.
     */
    async check(
      who: { organizationId: string; userId: string },
      label: { serial: string; claimCode: string },
      ip: string,
    ): Promise<{ serial: string; model: string | null; kind: DeviceKind }> {
      const record = await claimableLabel(who, label, ip);
      if (record.organizationId === who.organizationId) await notInstalledYet(record, who.organizationId);
      return { serial: record.serial, model: record.model, kind: record.kind };
    },

    /**
     * The device itself asks with its label's code: wait while nobody has claimed it, then its
     * token (a new one each time; the previous one stops working).
     */
    async provision(input: ClaimProvisionRequest & { claimCode: string }, ip: string): Promise<ProvisionResponse | { status: 'waiting' }> {
      const giveBack = await takeAttempt(wrongByIp, ip);
      const record = await labelled(input.serial, input.claimCode);
      if (!record) throw notFound(UNKNOWN_DEVICE);
      await giveBack();
      const organizationId = record.organizationId;
      if (!organizationId || !record.deviceId) return { status: 'waiting' };
      const device = await deviceOf(record, organizationId);
      if (!device) {
        // Purged from the trash: back on the shelf, to be claimed again.
        await dal.release(record.serial, organizationId);
        return { status: 'waiting' };
      }
      if (device.deletedAt) return { status: 'waiting' };
      if (input.inactivityTimeoutSeconds !== undefined) {
        await deps.devices[record.kind].update(organizationId, device.id, { inactivityTimeoutSeconds: input.inactivityTimeoutSeconds });
      }
      const accessToken = await deps.credentials.issue({ deviceId: device.id, kind: record.kind, organizationId });
      return { deviceId: device.id, kind: record.kind, accessToken };
    },
  };
}

export type ClaimingService = ReturnType<typeof createClaimingService>;
