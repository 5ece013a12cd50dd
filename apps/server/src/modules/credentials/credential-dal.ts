import type { DeviceKind } from '@vigie/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { deviceCredentials } from '../../db/schema.ts';

/** The only code that touches the device_credentials table. */
export function createCredentialDal(db: Database) {
  return {
    /** Stores the device's token; whether it replaced an earlier one (`xmax` is 0 for a row just inserted). */
    async upsert(identity: { deviceId: string; kind: DeviceKind; organizationId: string }, tokenHash: string): Promise<boolean> {
      const [row] = await db
        .insert(deviceCredentials)
        .values({ ...identity, tokenHash })
        .onConflictDoUpdate({ target: deviceCredentials.deviceId, set: { tokenHash, createdAt: new Date() } })
        .returning({ replaced: sql<boolean>`xmax <> 0` });
      return row?.replaced === true;
    },

    async findByTokenHash(tokenHash: string) {
      const [row] = await db
        .select({ deviceId: deviceCredentials.deviceId, kind: deviceCredentials.kind, organizationId: deviceCredentials.organizationId })
        .from(deviceCredentials)
        .where(eq(deviceCredentials.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    async findByDeviceId(deviceId: string) {
      const [row] = await db
        .select({ deviceId: deviceCredentials.deviceId, kind: deviceCredentials.kind, organizationId: deviceCredentials.organizationId })
        .from(deviceCredentials)
        .where(eq(deviceCredentials.deviceId, deviceId))
        .limit(1);
      return row;
    },

    async deleteOfDevices(deviceIds: string[]): Promise<void> {
      if (deviceIds.length === 0) return;
      await db.delete(deviceCredentials).where(inArray(deviceCredentials.deviceId, deviceIds));
    },
  };
}
