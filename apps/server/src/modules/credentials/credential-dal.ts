import type { DeviceKind } from '@vigie/contract';
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { deviceCredentials } from '../../db/schema.ts';

/** The only code that touches the device_credentials table. */
export function createCredentialDal(db: Database) {
  return {
    /** Stores the device's token hash, replacing the previous one. */
    async upsert(identity: { deviceId: string; kind: DeviceKind; organizationId: string }, tokenHash: string): Promise<void> {
      await db
        .insert(deviceCredentials)
        .values({ ...identity, tokenHash })
        .onConflictDoUpdate({ target: deviceCredentials.deviceId, set: { tokenHash, createdAt: new Date() } });
    },

    async findByTokenHash(tokenHash: string) {
      const [row] = await db
        .select({ deviceId: deviceCredentials.deviceId, kind: deviceCredentials.kind, organizationId: deviceCredentials.organizationId })
        .from(deviceCredentials)
        .where(eq(deviceCredentials.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    async deleteOfDevices(deviceIds: string[]): Promise<void> {
      if (deviceIds.length === 0) return;
      await db.delete(deviceCredentials).where(inArray(deviceCredentials.deviceId, deviceIds));
    },
  };
}
