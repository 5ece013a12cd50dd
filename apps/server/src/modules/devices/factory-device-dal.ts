import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { DeviceKind } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { factoryDevices } from '../../db/schema.ts';

export interface FactoryDeviceRecord {
  serial: string;
  kind: DeviceKind;
  model: string | null;
  claimCodeHash: string;
  organizationId: string | null;
  deviceId: string | null;
}

export interface NewFactoryDevice {
  serial: string;
  kind: DeviceKind;
  model: string | null;
  claimCodeHash: string;
}

const columns = {
  serial: factoryDevices.serial,
  kind: factoryDevices.kind,
  model: factoryDevices.model,
  claimCodeHash: factoryDevices.claimCodeHash,
  organizationId: factoryDevices.organizationId,
  deviceId: factoryDevices.deviceId,
};

/** The only code that touches the factory_devices table. */
export function createFactoryDeviceDal(db: Database) {
  return {
    async find(serial: string): Promise<FactoryDeviceRecord | undefined> {
      const [row] = await db.select(columns).from(factoryDevices).where(eq(factoryDevices.serial, serial)).limit(1);
      return row;
    },

    /** Which of these serials are already known. */
    async existing(serials: string[]): Promise<string[]> {
      if (serials.length === 0) return [];
      const rows = await db.select({ serial: factoryDevices.serial }).from(factoryDevices).where(inArray(factoryDevices.serial, serials));
      return rows.map((row) => row.serial);
    },

    /** Adds the devices not known yet (a known serial keeps its code); returns the serials added. */
    async insertNew(devices: NewFactoryDevice[]): Promise<string[]> {
      if (devices.length === 0) return [];
      const rows = await db
        .insert(factoryDevices)
        .values(devices)
        .onConflictDoNothing({ target: factoryDevices.serial })
        .returning({ serial: factoryDevices.serial });
      return rows.map((row) => row.serial);
    },

    /** Gives the device to the organization if nobody has it: of two concurrent claims, one wins. */
    async claim(serial: string, organizationId: string, userId: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(factoryDevices)
        .set({ organizationId, claimedBy: userId, claimedAt: at, deviceId: null })
        .where(and(eq(factoryDevices.serial, serial), isNull(factoryDevices.organizationId)))
        .returning({ serial: factoryDevices.serial });
      return rows.length === 1;
    },

    async link(serial: string, organizationId: string, deviceId: string): Promise<void> {
      await db
        .update(factoryDevices)
        .set({ deviceId })
        .where(and(eq(factoryDevices.serial, serial), eq(factoryDevices.organizationId, organizationId)));
    },

    /** Back on the shelf: a claim undone, or a device whose record was purged. */
    async release(serial: string, organizationId: string): Promise<void> {
      await db
        .update(factoryDevices)
        .set({ organizationId: null, deviceId: null, claimedAt: null, claimedBy: null })
        .where(and(eq(factoryDevices.serial, serial), eq(factoryDevices.organizationId, organizationId)));
    },
  };
}

export type FactoryDeviceDal = ReturnType<typeof createFactoryDeviceDal>;
