import { createHash, randomBytes } from 'node:crypto';
import type { DeviceKind } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { createCredentialDal } from './credential-dal.ts';

export interface DeviceIdentity {
  deviceId: string;
  kind: DeviceKind;
  organizationId: string;
}

/**
 * Where devices' MQTT accounts live when an external broker holds their connections: each token
 * issued, suspended, resumed or erased here takes effect there at once.
 */
export interface DeviceAccess {
  /** The device connects with this token from now on; connections opened with the previous one close. */
  grant(deviceId: string, token: string): Promise<void>;
  /** In the trash: refused, its connections closed, its token kept for a restore. */
  suspend(deviceId: string): Promise<void>;
  /** Back from the trash: its kept token works again. */
  resume(deviceId: string): Promise<void>;
  /** Purged for good. */
  remove(deviceIds: string[]): Promise<void>;
}

const TOKEN_PREFIX = 'vdt_';
const CACHE_TTL_MS = 5_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Device access tokens: 256 random bits, shown once, stored only as a SHA-256 hash (a fast hash
 * is enough for a random secret of this size). One token per device: issuing one revokes the last.
 */
export function createCredentialService(deps: {
  db: Database;
  /** Whether the device may use its token: false while it is in the trash (its token is kept). */
  isActive: (identity: DeviceIdentity) => Promise<boolean>;
}) {
  const dal = createCredentialDal(deps.db);
  const cache = new Map<string, { identity: DeviceIdentity | null; expires: number }>();
  const revokedListeners = new Set<(deviceId: string, organizationId: string) => void>();
  const identities = new Map<string, { identity: DeviceIdentity | null; expires: number }>();
  let access: DeviceAccess | null = null;

  /** The active device `find` returns (null when none, or in the trash), remembered a few seconds under `key`. */
  async function remembered(
    memory: Map<string, { identity: DeviceIdentity | null; expires: number }>,
    key: string,
    find: () => Promise<DeviceIdentity | undefined>,
  ): Promise<DeviceIdentity | null> {
    const known = memory.get(key);
    if (known && known.expires > Date.now()) return known.identity;
    const row = await find();
    const identity = row && (await deps.isActive(row)) ? row : null;
    if (memory.size > 10_000) memory.clear();
    memory.set(key, { identity, expires: Date.now() + CACHE_TTL_MS });
    return identity;
  }

  return {
    /** With an external broker: devices' accounts are kept there from now on. */
    useAccess(deviceAccess: DeviceAccess | null) {
      access = deviceAccess;
    },

    /** Called when a device's token stops working (a new token, or the device deleted). */
    onRevoked(listener: (deviceId: string, organizationId: string) => void) {
      revokedListeners.add(listener);
      return () => revokedListeners.delete(listener);
    },

    /** Forgets every cached token of the device (told by another instance, or by revoked()). */
    forget(deviceId: string) {
      identities.delete(deviceId);
      for (const [hash, entry] of cache) if (entry.identity?.deviceId === deviceId) cache.delete(hash);
    },

    /** The device's token ended here: forget it and tell the listeners (broadcast to every instance). */
    revoked(deviceId: string, organizationId: string) {
      this.forget(deviceId);
      for (const listener of revokedListeners) listener(deviceId, organizationId);
    },

    /** Forgets refused tokens, so a restored device's kept token works at once. */
    forgetRefusals() {
      for (const [hash, entry] of cache) if (entry.identity === null) cache.delete(hash);
      for (const [id, entry] of identities) if (entry.identity === null) identities.delete(id);
    },

    /** The device went to the trash: its token is refused from now on, in the external broker too. */
    async suspend(deviceId: string, organizationId: string): Promise<void> {
      this.revoked(deviceId, organizationId);
      await access?.suspend(deviceId);
    },

    /** The device is back from the trash: its kept token works again. */
    async resume(deviceId: string): Promise<void> {
      this.forgetRefusals();
      await access?.resume(deviceId);
    },

    async issue(identity: DeviceIdentity): Promise<string> {
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const tokenHash = hashToken(token);
      // The broker first: when storing fails after it, the device is locked out rather than an
      // ended token left working there.
      await access?.grant(identity.deviceId, token);
      // The old token stops working at once, here and on the device's open MQTT sessions. A first
      // token ends nothing: announcing it would close, when the news arrives late from the bus, the
      // connection the new device has just opened with it.
      if (await dal.upsert(identity, tokenHash)) this.revoked(identity.deviceId, identity.organizationId);
      return token;
    },

    /** Erases the credentials of purged devices. */
    async erase(deviceIds: string[]): Promise<void> {
      await access?.remove(deviceIds);
      await dal.deleteOfDevices(deviceIds);
    },

    /**
     * The device that published on its own topic of the external broker (the broker checked its
     * token): null when it is unknown, or in the trash.
     */
    identityOf(deviceId: string): Promise<DeviceIdentity | null> {
      return remembered(identities, deviceId, () => dal.findByDeviceId(deviceId));
    },

    /** The device a token belongs to, or null for an unknown or revoked token. */
    async authenticate(token: string | undefined): Promise<DeviceIdentity | null> {
      if (!token || !token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
      const tokenHash = hashToken(token);
      return remembered(cache, tokenHash, () => dal.findByTokenHash(tokenHash));
    },
  };
}

export type CredentialService = ReturnType<typeof createCredentialService>;
