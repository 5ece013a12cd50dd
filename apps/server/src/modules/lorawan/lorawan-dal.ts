import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { IntegrationType } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { lorawanCodecs, lorawanDevices, lorawanIntegrations, lorawanPending } from '../../db/schema.ts';

export type IntegrationRecord = typeof lorawanIntegrations.$inferSelect;
export type LorawanDeviceRecord = typeof lorawanDevices.$inferSelect;
export type PendingRecord = typeof lorawanPending.$inferSelect;
export type PastedCodecRecord = typeof lorawanCodecs.$inferSelect;

/** The only code that touches the LoRaWAN tables; every query of a person's is scoped to an organization. */
export function createLorawanDal(db: Database) {
  return {
    async createIntegration(input: {
      id?: string;
      organizationId: string;
      type: IntegrationType;
      name: string;
      secretHash: string;
      mqtt?: { server: string; username: string; sealedPassword: string };
    }) {
      const { mqtt, ...rest } = input;
      const values = mqtt
        ? {
            ...rest,
            mqttServer: mqtt.server,
            mqttUsername: mqtt.username,
            mqttPassword: mqtt.sealedPassword,
            mqttState: 'connecting' as const,
          }
        : rest;
      const [row] = await db.insert(lorawanIntegrations).values(values).returning();
      return row as IntegrationRecord;
    },
    /** Every organization's integrations through an MQTT server: the connections to hold. */
    mqttIntegrations(): Promise<IntegrationRecord[]> {
      return db
        .select()
        .from(lorawanIntegrations)
        .where(sql`${lorawanIntegrations.mqttServer} is not null`)
        .orderBy(asc(lorawanIntegrations.id));
    },
    /** Written by the instance that holds the connection, when its state changes. */
    async setMqttState(id: string, state: 'connecting' | 'connected' | 'error', error: string | null): Promise<void> {
      await db.update(lorawanIntegrations).set({ mqttState: state, mqttError: error }).where(eq(lorawanIntegrations.id, id));
    },
    listIntegrations(organizationId: string): Promise<IntegrationRecord[]> {
      return db
        .select()
        .from(lorawanIntegrations)
        .where(eq(lorawanIntegrations.organizationId, organizationId))
        .orderBy(asc(lorawanIntegrations.createdAt), asc(lorawanIntegrations.id));
    },
    /** By id alone: the network server's call names it in the address, its secret says who it is. */
    async integration(id: string): Promise<IntegrationRecord | undefined> {
      const [row] = await db.select().from(lorawanIntegrations).where(eq(lorawanIntegrations.id, id)).limit(1);
      return row;
    },
    async removeIntegration(organizationId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(lorawanIntegrations)
        .where(and(eq(lorawanIntegrations.organizationId, organizationId), eq(lorawanIntegrations.id, id)))
        .returning({ id: lorawanIntegrations.id });
      return rows.length > 0;
    },
    /** At most once a minute per integration: the list shows when the server was last heard. */
    async heard(id: string, at: Date): Promise<void> {
      await db
        .update(lorawanIntegrations)
        .set({ lastEventAt: at })
        .where(
          and(
            eq(lorawanIntegrations.id, id),
            sql`(${lorawanIntegrations.lastEventAt} is null or ${lorawanIntegrations.lastEventAt} < ${new Date(at.getTime() - 60_000)})`,
          ),
        );
    },

    async device(organizationId: string, devEui: string): Promise<LorawanDeviceRecord | undefined> {
      const [row] = await db
        .select()
        .from(lorawanDevices)
        .where(and(eq(lorawanDevices.organizationId, organizationId), eq(lorawanDevices.devEui, devEui)))
        .limit(1);
      return row;
    },
    listDevices(organizationId: string): Promise<LorawanDeviceRecord[]> {
      return db.select().from(lorawanDevices).where(eq(lorawanDevices.organizationId, organizationId)).orderBy(asc(lorawanDevices.devEui));
    },
    /** Registers the device (or points it at its sensor and codec again). */
    async saveDevice(input: { organizationId: string; devEui: string; sensorId: string; codec: string }): Promise<void> {
      await db
        .insert(lorawanDevices)
        .values(input)
        .onConflictDoUpdate({
          target: [lorawanDevices.organizationId, lorawanDevices.devEui],
          set: { sensorId: input.sensorId, codec: input.codec, lastError: null },
        });
    },
    async deviceHeard(
      organizationId: string,
      devEui: string,
      seen: { at: Date; rssi: number | null; snr: number | null; gateway: string | null; error: string | null },
    ): Promise<void> {
      await db
        .update(lorawanDevices)
        .set({ lastUplinkAt: seen.at, rssi: seen.rssi, snr: seen.snr, gateway: seen.gateway, lastError: seen.error })
        .where(and(eq(lorawanDevices.organizationId, organizationId), eq(lorawanDevices.devEui, devEui)));
    },

    /** An uplink of an unregistered DevEUI: kept (or counted) for adoption. */
    async keepPending(input: {
      organizationId: string;
      devEui: string;
      integrationId: string;
      at: Date;
      brand: string | null;
      model: string | null;
      fPort: number | null;
      payloadHex: string | null;
    }): Promise<void> {
      const { at, ...rest } = input;
      await db
        .insert(lorawanPending)
        .values({ ...rest, firstSeenAt: at, lastSeenAt: at, uplinks: 1 })
        .onConflictDoUpdate({
          target: [lorawanPending.organizationId, lorawanPending.devEui],
          set: {
            integrationId: input.integrationId,
            lastSeenAt: at,
            uplinks: sql`${lorawanPending.uplinks} + 1`,
            brand: sql`coalesce(${input.brand}, ${lorawanPending.brand})`,
            model: sql`coalesce(${input.model}, ${lorawanPending.model})`,
            fPort: sql`coalesce(${input.fPort}, ${lorawanPending.fPort})`,
            payloadHex: sql`coalesce(${input.payloadHex}, ${lorawanPending.payloadHex})`,
          },
        });
    },
    listPending(organizationId: string): Promise<PendingRecord[]> {
      return db
        .select()
        .from(lorawanPending)
        .where(eq(lorawanPending.organizationId, organizationId))
        .orderBy(desc(lorawanPending.lastSeenAt))
        .limit(500);
    },
    async saveCodec(input: { organizationId: string; name: string; source: string; measures: string[] }): Promise<PastedCodecRecord> {
      const [row] = await db.insert(lorawanCodecs).values(input).returning();
      return row as PastedCodecRecord;
    },
    listCodecs(organizationId: string): Promise<PastedCodecRecord[]> {
      return db.select().from(lorawanCodecs).where(eq(lorawanCodecs.organizationId, organizationId)).orderBy(asc(lorawanCodecs.createdAt));
    },
    async codec(organizationId: string, id: string): Promise<PastedCodecRecord | undefined> {
      const [row] = await db
        .select()
        .from(lorawanCodecs)
        .where(and(eq(lorawanCodecs.organizationId, organizationId), eq(lorawanCodecs.id, id)))
        .limit(1);
      return row;
    },
    async removeCodec(organizationId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(lorawanCodecs)
        .where(and(eq(lorawanCodecs.organizationId, organizationId), eq(lorawanCodecs.id, id)))
        .returning({ id: lorawanCodecs.id });
      return rows.length > 0;
    },
    async devicesUsing(organizationId: string, codec: string): Promise<number> {
      const rows = await db
        .select({ devEui: lorawanDevices.devEui })
        .from(lorawanDevices)
        .where(and(eq(lorawanDevices.organizationId, organizationId), eq(lorawanDevices.codec, codec)))
        .limit(1);
      return rows.length;
    },

    async dropPending(organizationId: string, devEui: string): Promise<boolean> {
      const rows = await db
        .delete(lorawanPending)
        .where(and(eq(lorawanPending.organizationId, organizationId), eq(lorawanPending.devEui, devEui)))
        .returning({ devEui: lorawanPending.devEui });
      return rows.length > 0;
    },
  };
}

export type LorawanDal = ReturnType<typeof createLorawanDal>;
