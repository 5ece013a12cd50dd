import {
  type CreateRuleRequest,
  installUseRule,
  type LorawanDevice,
  type PendingLorawanDevice,
  type RegisterLorawanDeviceRequest,
  registerLorawanDeviceRequestSchema,
} from '@vigie/contract';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { DeviceService, DeviceView } from '../devices/device-service.ts';
import { codecById, suggestCodec } from './codecs/index.ts';
import { type LorawanCodecs, NETWORK_CODEC } from './lorawan-codecs.ts';
import type { LorawanDal } from './lorawan-dal.ts';
import type { LorawanUplinks } from './lorawan-uplinks.ts';

/** How often a LoRaWAN sensor reports when its codec does not say (ten minutes, the makers' usual default). */
export const LORAWAN_CADENCE_SECONDS = 600;

/** A sensor is offline once it missed about three uplinks: max(3 × cadence, cadence + 5 min). */
export function silenceLimitSeconds(cadenceSeconds: number): number {
  return Math.max(3 * cadenceSeconds, cadenceSeconds + 300);
}

/**
 * The organization's LoRaWAN devices: those registered by DevEUI with their codec and last signal,
 * and those heard but unknown, waiting for adoption. Registering one makes its sensor (or brings it
 * back from the trash), its rule when a use is given, and stores the frame it was heard with.
 */
export function createLorawanDevices(deps: {
  dal: LorawanDal;
  codecs: Pick<LorawanCodecs, 'pastedCodec'>;
  uplinks: Pick<LorawanUplinks, 'storeUplink' | 'forgetDevice' | 'forgetSignal'>;
  sensors: () => Pick<DeviceService, 'findBySerial' | 'create' | 'restore' | 'get'>;
  assertSite: (organizationId: string, siteId: string) => Promise<void>;
  createRule: (organizationId: string, rule: CreateRuleRequest) => Promise<unknown>;
}) {
  const { dal } = deps;

  return {
    async devices(organizationId: string): Promise<LorawanDevice[]> {
      return (await dal.listDevices(organizationId)).map((record) => ({
        devEui: record.devEui,
        sensorId: record.sensorId,
        codec: record.codec,
        lastUplinkAt: record.lastUplinkAt?.toISOString() ?? null,
        rssi: record.rssi,
        snr: record.snr,
        gateway: record.gateway,
        lastError: record.lastError,
      }));
    },

    async pending(organizationId: string): Promise<PendingLorawanDevice[]> {
      return (await dal.listPending(organizationId)).map((record) => ({
        devEui: record.devEui,
        integrationId: record.integrationId,
        firstSeenAt: record.firstSeenAt.toISOString(),
        lastSeenAt: record.lastSeenAt.toISOString(),
        uplinks: record.uplinks,
        brand: record.brand,
        model: record.model,
        suggestedCodec: suggestCodec({
          ...(record.brand ? { brand_id: record.brand } : {}),
          ...(record.model ? { model_id: record.model } : {}),
        }),
        fPort: record.fPort,
        payloadHex: record.payloadHex,
      }));
    },
    async dismiss(organizationId: string, devEui: string): Promise<void> {
      if (!(await dal.dropPending(organizationId, devEui)))
        throw notFound('Cet appareil ne figure pas parmi les nouveaux appareils détectés.');
    },

    /** Registers a device by DevEUI: its sensor (serial = DevEUI), its codec, and its rule when a use is given. */
    async register(organizationId: string, body: RegisterLorawanDeviceRequest): Promise<Extract<DeviceView, { kind: 'sensor' }>> {
      const input = registerLorawanDeviceRequestSchema.parse(body);
      const codec = input.codec === NETWORK_CODEC ? null : codecById(input.codec);
      const pasted = codec ? undefined : await deps.codecs.pastedCodec(organizationId, input.codec);
      if (!codec && !pasted && input.codec !== NETWORK_CODEC) {
        throw badRequest(`Décodeur inconnu « ${input.codec.slice(0, 64)} » : choisissez-en un de la liste des décodeurs.`);
      }
      if (input.siteId) await deps.assertSite(organizationId, input.siteId);
      const sensors = deps.sensors();
      const existing = await sensors.findBySerial(organizationId, input.devEui);
      if (existing && !existing.deletedAt && (await dal.device(organizationId, input.devEui))) {
        const { device } = await sensors.get(organizationId, existing.id);
        throw conflict(`Ce DevEUI est déjà enregistré dans votre organisation (« ${device.name} »).`);
      }
      let sensor: DeviceView;
      let created = false;
      if (existing?.deletedAt) sensor = await sensors.restore(organizationId, existing.id);
      else if (existing) sensor = await sensors.get(organizationId, existing.id);
      else {
        const model = codec ? `${codec.vendor} ${codec.model}` : pasted ? pasted.name.slice(0, 64) : 'LoRaWAN';
        sensor = await sensors.create(organizationId, {
          name: input.name ?? `${model} ${input.devEui.slice(-6)}`.slice(0, 100),
          serial: input.devEui,
          model,
          siteId: input.siteId,
          // Offline only when it missed several of its uplinks, not at the first one a little late.
          inactivityTimeoutSeconds: silenceLimitSeconds(LORAWAN_CADENCE_SECONDS),
        });
        created = true;
      }
      await dal.saveDevice({ organizationId, devEui: input.devEui, sensorId: sensor.device.id, codec: input.codec });
      deps.uplinks.forgetDevice(organizationId, input.devEui);
      const heard = (await dal.listPending(organizationId)).find((record) => record.devEui === input.devEui);
      await dal.dropPending(organizationId, input.devEui);
      const measures = codec ? codec.measures : (pasted?.measures ?? []);
      const rule = input.preset ? installUseRule(input.preset, sensor.device.id, measures) : null;
      if (rule && created) await deps.createRule(organizationId, rule);
      if (sensor.kind !== 'sensor') throw new Error('A LoRaWAN device is a sensor');
      // The frame heard while it waited for adoption is its first reading, now rather than one interval later.
      const integration = heard?.payloadHex ? await dal.integration(heard.integrationId) : undefined;
      if (heard?.payloadHex && integration) {
        await deps.uplinks.storeUplink(integration, {
          kind: 'uplink',
          devEui: input.devEui,
          devAddr: null,
          fCnt: null,
          receptionId: `pending-${heard.lastSeenAt.getTime()}`,
          fPort: heard.fPort,
          bytes: Buffer.from(heard.payloadHex, 'hex'),
          decoded: null,
          receivedAt: heard.lastSeenAt,
          rssi: null,
          snr: null,
          gateway: null,
          versionIds: null,
        });
        // The waiting frame kept no signal: the next uplink writes its own at once.
        deps.uplinks.forgetSignal(organizationId, input.devEui);
        return (await sensors.get(organizationId, sensor.device.id)) as typeof sensor;
      }
      return sensor;
    },
  };
}
