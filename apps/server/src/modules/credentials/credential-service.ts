import { createHash, randomBytes } from 'node:crypto';
import type { DeviceKind } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { createCredentialDal } from './credential-dal.ts';

export interface DeviceIdentity {
  deviceId: string;
  kind: DeviceKind;
  organizationId: string;
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

  return {
    /** Called when a device's token stops working (a new token, or the device deleted). */
    onRevoked(listener: (deviceId: string, organizationId: string) => void) {
      revokedListeners.add(listener);
      return () => revokedListeners.delete(listener);
    },

    /** Forgets every cached token of the device (told by another instance, or by revoked()). */
    forget(deviceId: string) {
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
    },

    async issue(identity: DeviceIdentity): Promise<string> {
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const tokenHash = hashToken(token);
      // The old token stops working at once, here and on the device's open MQTT sessions. A first
      // token ends nothing: announcing it would close, when the news arrives late from the bus, the
      // connection the new device has just opened with it.
      if (await dal.upsert(identity, tokenHash)) this.revoked(identity.deviceId, identity.organizationId);
      return token;
    },

    /** Erases the credentials of purged devices. */
    erase(deviceIds: string[]): Promise<void> {
      return dal.deleteOfDevices(deviceIds);
    },

    /** The device a token belongs to, or null for an unknown or revoked token. */
    async authenticate(token: string | undefined): Promise<DeviceIdentity | null> {
      if (!token || !token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
      const tokenHash = hashToken(token);
      const cached = cache.get(tokenHash);
      if (cached && cached.expires > Date.now()) return cached.identity;
      const row = await dal.findByTokenHash(tokenHash);
      const identity = row && (await deps.isActive(row)) ? row : null;
      if (cache.size > 10_000) cache.clear();
      cache.set(tokenHash, { identity, expires: Date.now() + CACHE_TTL_MS });
      return identity;
    },
  };
}

export type CredentialService = ReturnType<typeof createCredentialService>;
