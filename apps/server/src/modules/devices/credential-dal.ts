import type { DeviceKind } from '@vigie/contract';
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { deviceCredentials } from '../../db/schema.ts';

/** The only code that touches the device_credentials table. */
export function createCredentialDal(db: Database) {
  async function findIdentity(where: SQL) {
    const [row] = await db
      .select({ deviceId: deviceCredentials.deviceId, kind: deviceCredentials.kind, organizationId: deviceCredentials.organizationId })
      .from(deviceCredentials)
      .where(where)
      .limit(1);
    return row;
  }

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

    findByTokenHash: (tokenHash: string) => findIdentity(eq(deviceCredentials.tokenHash, tokenHash)),

    findByDeviceId: (deviceId: string) => findIdentity(eq(deviceCredentials.deviceId, deviceId)),

    async deleteOfDevices(deviceIds: string[]): Promise<void> {
      if (deviceIds.length === 0) return;
      await db.delete(deviceCredentials).where(inArray(deviceCredentials.deviceId, deviceIds));
    },
  };
}
