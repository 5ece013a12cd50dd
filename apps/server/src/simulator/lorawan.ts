import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import {
  type CreatedIntegrationResponse,
  endpoints,
  type InstallUseKey,
  INSTALL_USES,
  type IntegrationEventResponse,
  type IntegrationType,
  type LorawanDeviceListResponse,
  type SiteListResponse,
  type SiteResponse,
} from '@vigie/contract';
import type { Fault } from './faults.ts';
import { measure, noise, type SensorProfile, type SimulatedSensor } from './shop-model.ts';

/**
 * `npm run simulate -- --lorawan tts|chirpstack`: Milesight EM300-TH sensors heard by a network
 * server, without hardware. The simulator creates the integration and registers the devices through
 * the API, as a manager would, then plays the network server: every few seconds each device's frame,
 * encoded from the shop model's values, is posted to the integration's address in The Things Stack
 * v3 webhook format or ChirpStack v4 `?event=up` format. One device is left unregistered, so that it
 * shows among the devices detected.
 */

/** What an EM300-TH measures: °C, % of relative humidity, % of battery. */
export interface Em300ThValues {
  temperature: number;
  humidity: number;
  battery: number;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * An EM300-TH frame, as the sensor sends it: channel 01 75 battery (uint8, %), 03 67 temperature
 * (int16 little-endian, 0.1 °C), 04 68 humidity (uint8, 0.5 %). Values are rounded to the frame's
 * resolution and kept within what its fields hold.
 */
export function encodeEm300Th(values: Em300ThValues): Uint8Array {
  const frame = new Uint8Array(10);
  const view = new DataView(frame.buffer);
  frame.set([0x01, 0x75], 0);
  view.setUint8(2, clamp(Math.round(values.battery), 0, 100));
  frame.set([0x03, 0x67], 3);
  view.setInt16(5, clamp(Math.round(values.temperature * 10), -32768, 32767), true);
  frame.set([0x04, 0x68], 7);
  view.setUint8(9, clamp(Math.round(values.humidity * 2), 0, 200));
  return frame;
}

/** A simulated LoRaWAN device: the shop model's sensor (its serial is the DevEUI) and how it is registered. */
export interface LorawanSimDevice {
  devEui: string;
  sensor: SimulatedSensor;
  /** The use its rule comes from; null: left unregistered, to show among the devices detected. */
  preset: InstallUseKey | null;
}

const SHOP: { name: string; profile: SensorProfile; preset: InstallUseKey | null }[] = [
  { name: 'Chambre froide', profile: 'fridge', preset: 'chilled_perishable' },
  { name: 'Vitrine laitages', profile: 'fridge', preset: 'chilled_perishable' },
  { name: 'Congélateur', profile: 'freezer', preset: 'frozen' },
  { name: 'Surface de vente', profile: 'room', preset: 'none' },
  { name: 'Vitrine boissons', profile: 'fridge', preset: null },
];

/** Milesight's DevEUIs begin with its OUI, 24E124; the rest is drawn from the shop's code, the same on every run. */
const devEuiOf = (shopCode: string, index: number) =>
  `24e124${createHash('sha256').update(`${shopCode}/lorawan/${index}`).digest('hex').slice(0, 10)}`;

/** The shop's LoRaWAN sensors, all EM300-TH: two fridges, a freezer, the shop floor, and a fridge nobody registered. */
export function lorawanShop(shopCode: string, shop: string): LorawanSimDevice[] {
  return SHOP.map((entry, index) => {
    const devEui = devEuiOf(shopCode, index);
    return {
      devEui,
      sensor: { serial: devEui, name: `${entry.name} · ${shop}`.slice(0, 100), model: 'Milesight EM300-TH', profile: entry.profile },
      preset: entry.preset,
    };
  });
}

/**
 * The values an EM300-TH reports at t: temperature and battery from the shop model; humidity from it
 * on the shop floor, and in a cold cabinet (which the model leaves dry) a damp 80 to 90 %, drifting slowly.
 */
export function em300ThValues(sensor: SimulatedSensor, t: number, stepSeconds: number, faults: readonly Fault[] = []): Em300ThValues {
  const values = measure(sensor, t, stepSeconds, faults);
  const temperature = typeof values['temperature'] === 'number' ? values['temperature'] : 20;
  const battery = typeof values['battery'] === 'number' ? values['battery'] : 100;
  const slow = Math.sin((2 * Math.PI * t) / (3 * 3_600_000) + noise(sensor.serial, 3) * 2 * Math.PI);
  const humidity =
    typeof values['humidity'] === 'number' ? values['humidity'] : 85 + 4 * slow + (noise(sensor.serial, Math.floor(t / 60_000)) - 0.5) * 2;
  return { temperature, humidity, battery };
}

/** One uplink as the network server hands it on: the device, its session and counter, the frame and how it was heard. */
export interface Uplink {
  devEui: string;
  /** The session's device address, 8 hexadecimal digits. */
  devAddr: string;
  fCnt: number;
  frame: Uint8Array;
  receivedAt: Date;
  gatewayEui: string;
  rssi: number;
  snr: number;
  deviceName: string;
  application: string;
}

/** The Things Stack v3's uplink message, as its webhook (format JSON) posts it. */
export function ttsUplinkMessage(uplink: Uplink): Record<string, unknown> {
  const receivedAt = uplink.receivedAt.toISOString();
  return {
    end_device_ids: {
      device_id: `eui-${uplink.devEui}`,
      application_ids: { application_id: uplink.application },
      dev_eui: uplink.devEui.toUpperCase(),
      join_eui: '24E124C0002A0001',
      dev_addr: uplink.devAddr.toUpperCase(),
    },
    correlation_ids: [`as:up:${randomBytes(13).toString('hex').toUpperCase()}`],
    received_at: receivedAt,
    uplink_message: {
      session_key_id: randomBytes(16).toString('base64'),
      f_port: 85,
      f_cnt: uplink.fCnt,
      frm_payload: Buffer.from(uplink.frame).toString('base64'),
      rx_metadata: [
        {
          gateway_ids: { gateway_id: `passerelle-${uplink.application}`, eui: uplink.gatewayEui.toUpperCase() },
          time: receivedAt,
          rssi: uplink.rssi,
          channel_rssi: uplink.rssi,
          snr: uplink.snr,
          uplink_token: randomBytes(24).toString('base64'),
          received_at: receivedAt,
        },
      ],
      settings: {
        data_rate: { lora: { bandwidth: 125000, spreading_factor: 7, coding_rate: '4/5' } },
        frequency: '868100000',
        time: receivedAt,
      },
      received_at: receivedAt,
      consumed_airtime: '0.061696s',
      version_ids: {
        brand_id: 'milesight-iot',
        model_id: 'em300-th',
        hardware_version: '1.0',
        firmware_version: '1.1',
        band_id: 'EU_863_870',
      },
      network_ids: { net_id: '000013', tenant_id: 'ttn', cluster_id: 'eu1', cluster_address: 'eu1.cloud.thethings.network' },
    },
  };
}

/** ChirpStack v4's HTTP integration, JSON encoding, the body of `?event=up`. */
export function chirpstackUpMessage(uplink: Uplink): Record<string, unknown> {
  return {
    deduplicationId: randomUUID(),
    time: uplink.receivedAt.toISOString(),
    deviceInfo: {
      tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
      tenantName: 'ChirpStack',
      applicationId: '17c82e96-be03-4f38-aef3-f83d48582d97',
      applicationName: uplink.application,
      deviceProfileId: 'b7e2d1a4-5c3f-4e8a-9d6b-2f1e0c4a7b93',
      deviceProfileName: 'Milesight EM300-TH',
      deviceName: uplink.deviceName,
      devEui: uplink.devEui,
      deviceClassEnabled: 'CLASS_A',
      tags: {},
    },
    devAddr: uplink.devAddr.toLowerCase(),
    adr: true,
    dr: 5,
    fCnt: uplink.fCnt,
    fPort: 85,
    confirmed: false,
    data: Buffer.from(uplink.frame).toString('base64'),
    rxInfo: [
      {
        gatewayId: uplink.gatewayEui.toLowerCase(),
        uplinkId: randomInt(1, 2 ** 31),
        time: uplink.receivedAt.toISOString(),
        rssi: uplink.rssi,
        snr: uplink.snr,
        channel: 0,
        location: {},
        context: randomBytes(4).toString('base64'),
        metadata: { region_config_id: 'eu868', region_common_name: 'EU868' },
        crcStatus: 'CRC_OK',
      },
    ],
    txInfo: { frequency: 868100000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
  };
}

/** The networks the simulator speaks (the others are read by the server alike, docs/api.md, LoRaWAN). */
export type SimulatedNetwork = Extract<IntegrationType, 'tts' | 'chirpstack'>;

const NETWORK_LABELS: Record<SimulatedNetwork, string> = { tts: 'The Things Stack v3', chirpstack: 'ChirpStack v4' };

/** A number the French way, with a true minus sign. */
const french = (value: number, digits = 1) => value.toLocaleString('fr-FR', { maximumFractionDigits: digits }).replace('-', '\u2212');

const STATUS_LABELS: Record<IntegrationEventResponse['status'], string> = {
  stored: 'enregistrée',
  duplicate: 'déjà reçue, enregistrée une fois',
  refused: 'refusée (la raison est sur l’appareil)',
  unknown_device: 'appareil inconnu, gardé parmi les nouveaux appareils détectés',
  ignored: 'ignorée',
  undecoded: 'trame non lue (la raison est sur l’appareil)',
};

export interface LorawanRunOptions {
  base: string;
  type: SimulatedNetwork;
  email: string;
  password: string;
  shop: string;
  devices: LorawanSimDevice[];
  faults: Map<string, Fault[]>;
  intervalSeconds: number;
  log: (line: string) => void;
  fail: (message: string) => never;
}

/**
 * Signs in, creates the integration, registers the devices (but one) and starts sending their
 * uplinks every `intervalSeconds`; answers the function that stops, once what was sent is answered.
 */
export async function runLorawan(options: LorawanRunOptions): Promise<() => Promise<void>> {
  const { base, type, devices, log, fail } = options;
  const network = NETWORK_LABELS[type];
  const call = async <T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
    } catch (error) {
      return fail(`Serveur Vigie injoignable (${url})\u202f: ${(error as Error).message}. Lancez-le avec «\u202fnpm start\u202f».`);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { message: text };
    }
    return { status: response.status, body: body as T };
  };
  const messageOf = (body: unknown) => (body as { message?: string } | null)?.message ?? '';

  const login = await call<{ accessToken: string }>(`${base}${endpoints.auth.login.path}`, {
    method: 'POST',
    body: JSON.stringify({ email: options.email, password: options.password }),
  });
  if (login.status !== 200) fail(`Connexion impossible avec ${options.email}\u202f: ${login.status} ${messageOf(login.body)}`);
  const user = { authorization: `Bearer ${login.body.accessToken}` };

  // The shop's site, created when it does not exist yet.
  const sites = await call<SiteListResponse>(`${base}${endpoints.sites.list.path}`, { headers: user });
  let siteId = sites.body.sites?.find((site) => site.name === options.shop)?.id;
  if (!siteId) {
    const created = await call<SiteResponse>(`${base}${endpoints.sites.create.path}`, {
      method: 'POST',
      headers: user,
      body: JSON.stringify({ name: options.shop }),
    });
    if (created.status !== 201)
      fail(`Création du site «\u202f${options.shop}\u202f» refusée\u202f: ${created.status} ${messageOf(created.body)}`);
    siteId = created.body.site.id;
  }

  const created = await call<CreatedIntegrationResponse>(`${base}${endpoints.integrations.create.path}`, {
    method: 'POST',
    headers: user,
    body: JSON.stringify({ type, name: `Simulateur ${network} · ${options.shop}`.slice(0, 100) }),
  });
  if (created.status !== 201) fail(`Création de l’intégration refusée\u202f: ${created.status} ${messageOf(created.body)}`);
  const { integration } = created.body;
  log(`Intégration ${network} créée\u202f: «\u202f${integration.name}\u202f»`);
  log(`  adresse\u202f: ${integration.url}`);
  log(`  secret (montré une seule fois)\u202f: ${integration.secret}`);

  const registered = new Set(
    (await call<LorawanDeviceListResponse>(`${base}${endpoints.lorawan.devices.path}`, { headers: user })).body.devices?.map(
      (device) => device.devEui,
    ) ?? [],
  );
  for (const device of devices) {
    const eui = device.devEui.toUpperCase();
    if (device.preset === null) {
      log(
        registered.has(device.devEui)
          ? `${eui} «\u202f${device.sensor.name}\u202f»\u202f: déjà adopté auparavant, ses trames sont enregistrées.`
          : `${eui} «\u202f${device.sensor.name}\u202f»\u202f: laissé non enregistré, il apparaîtra dans «\u202fNouveaux appareils détectés\u202f» (GET ${endpoints.lorawan.pending.path}).`,
      );
      continue;
    }
    const answer = await call<unknown>(`${base}${endpoints.lorawan.register.path}`, {
      method: 'POST',
      headers: user,
      body: JSON.stringify({ devEui: device.devEui, codec: 'milesight-em300-th', name: device.sensor.name, siteId, preset: device.preset }),
    });
    const rule = INSTALL_USES[device.preset].rule;
    if (answer.status === 201)
      log(
        `${eui} «\u202f${device.sensor.name}\u202f» enregistré (décodeur milesight-em300-th${rule ? `, règle «\u202f${rule.name}\u202f»` : ', sans règle'}).`,
      );
    else if (answer.status === 409) log(`${eui} «\u202f${device.sensor.name}\u202f»\u202f: déjà enregistré, repris tel quel.`);
    else fail(`Enregistrement de ${eui} refusé\u202f: ${answer.status} ${messageOf(answer.body)}`);
  }

  // A session of its own for each device on each run (a new join): frame counters start afresh.
  const sessions = new Map(devices.map((device) => [device.devEui, { devAddr: `260b${randomBytes(2).toString('hex')}`, fCnt: 0 }]));
  const code = createHash('sha256').update(options.shop).digest('hex');
  const gatewayEui = `b827ebfffe${code.slice(0, 6)}`;
  const application =
    options.shop
      .normalize('NFD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase()
      .slice(0, 30) || 'magasin';
  const target = type === 'chirpstack' ? `${integration.url}?event=up` : integration.url;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${integration.secret}` };
  log(
    `Envoi d’une trame EM300-TH par appareil ${options.intervalSeconds === 1 ? 'chaque seconde' : `toutes les ${french(options.intervalSeconds)}\u00a0s`}, au format ${network}, vers ${target}. Ctrl+C pour arrêter.`,
  );

  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const send = async (device: LorawanSimDevice, t: number) => {
    const session = sessions.get(device.devEui) as { devAddr: string; fCnt: number };
    session.fCnt += 1;
    const values = em300ThValues(device.sensor, t, options.intervalSeconds, options.faults.get(device.devEui));
    const frame = encodeEm300Th(values);
    // Each device at its own distance from the gateway, give or take a few decibels.
    const rssi = Math.round(-72 - 30 * noise(device.devEui, 5) + (Math.random() - 0.5) * 6);
    const uplink: Uplink = {
      devEui: device.devEui,
      devAddr: session.devAddr,
      fCnt: session.fCnt,
      frame,
      receivedAt: new Date(t),
      gatewayEui,
      rssi,
      snr: Math.round((10 + (rssi + 72) / 4 + (Math.random() - 0.5) * 2) * 10) / 10,
      deviceName: device.sensor.name,
      application,
    };
    const body = type === 'tts' ? ttsUplinkMessage(uplink) : chirpstackUpMessage(uplink);
    const time = new Date(t).toLocaleTimeString('fr-FR', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    const what = `${time} ${device.devEui.toUpperCase()} f_cnt ${uplink.fCnt}\u202f: ${french(values.temperature)}\u00a0°C, ${french(values.humidity)}\u00a0%, pile ${Math.round(values.battery)}\u00a0% (trame ${Buffer.from(frame).toString('hex')}, RSSI ${french(rssi)}\u00a0dBm)`;
    let response: Response;
    try {
      response = await fetch(target, { method: 'POST', headers, body: JSON.stringify(body) });
    } catch (error) {
      count('injoignable');
      log(`${what} → adresse injoignable (${(error as Error).message}\u202f; PUBLIC_URL est-elle bien l’adresse de ce serveur\u202f?)`);
      return;
    }
    const text = await response.text();
    if (response.ok) {
      const answer = JSON.parse(text) as IntegrationEventResponse;
      count(answer.status);
      const readings = answer.readings > 0 ? ` (${answer.readings} lecture${answer.readings > 1 ? 's' : ''})` : '';
      log(`${what} → ${response.status} ${answer.status}\u202f: ${STATUS_LABELS[answer.status] ?? answer.status}${readings}`);
    } else {
      count(String(response.status));
      let message = text;
      try {
        message = messageOf(JSON.parse(text));
      } catch {
        // Plain text.
      }
      log(`${what} → ${response.status} ${message}`);
    }
  };

  const inFlight = new Set<Promise<void>>();
  const tick = () => {
    const t = Date.now();
    for (const device of devices) {
      const sending = send(device, t);
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
    }
  };
  tick();
  const timer = setInterval(tick, options.intervalSeconds * 1000);
  return async () => {
    clearInterval(timer);
    await Promise.race([Promise.all(inFlight), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    const detail = [...counts.entries()].map(([status, n]) => `${status} ${n}`).join(', ');
    log(`Arrêt du simulateur LoRaWAN\u202f: ${total} trame${total > 1 ? 's' : ''} envoyée${total > 1 ? 's' : ''} (${detail || 'aucune'}).`);
    log(
      `À regarder\u202f: la page «\u202fCapteurs LoRaWAN\u202f» (${base}/dashboard/lorawan), avec l’intégration, les appareils et leur signal (GET ${endpoints.lorawan.devices.path}) et les nouveaux appareils détectés (GET ${endpoints.lorawan.pending.path})\u202f; les capteurs sur le tableau de bord.`,
    );
  };
}
