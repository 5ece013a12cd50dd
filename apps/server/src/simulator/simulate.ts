import { parseArgs } from 'node:util';
import type { DeviceKind, ProtocolInfo, ProvisionResponse, TelemetryReading } from '@vigie/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { makeBatch, readBatch, runFactoryDevices, terminalLabel } from './factory.ts';
import { measure, shopSensors, type SimulatedSensor } from './shop-model.ts';

/**
 * `npm run simulate -- --shop "Boutique Lyon" --sensors 20 --rate 1`
 * A shop's transmitter and sensors, installed and reporting through the public device protocol
 * only (installation key, provisioning, MQTT or HTTP telemetry) — exactly what real devices do.
 */

const USAGE = `Usage : npm run simulate -- [options]
  --shop NOM          nom du magasin : le site de ce nom, créé s’il n’existe pas (défaut : « Boutique Lyon »)
  --sensors N         nombre de capteurs (défaut : 12)
  --rate R            lectures par seconde et par capteur (défaut : 1 ; 0.1 = une toutes les 10 s)
  --transport T       mqtt ou http (défaut : mqtt, ou http si le serveur n'a pas MQTT)
  --url URL           adresse du serveur Vigie (défaut : http://localhost:3000)
  --key CLÉ           clé d'installation (sinon lue avec --email/--password)
  --email E --password P   compte dont la clé est lue (défaut : le compte de démonstration)
  --duration S        s'arrêter après S secondes (défaut : jamais ; Ctrl+C pour arrêter)

Appareils d’usine (étiquette à scanner, PRODUCT §12) :
  --make-batch N --out DOSSIER   crée un lot de N appareils : DOSSIER/lot.csv (pour npm run devices:import)
                                 et DOSSIER/etiquettes.html (les étiquettes à scanner)
  --factory FICHIER.csv          allume les appareils du lot : ils attendent d’être installés depuis
                                 « Installer un appareil », puis envoient leurs mesures`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function api<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  } catch (error) {
    fail(`Serveur Vigie injoignable (${url}) : ${(error as Error).message}. Lancez-le avec « npm start ».`);
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // Plain text.
    }
    throw new Error(`${response.status} ${message}`);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Short code from the shop name, used in serials: « Boutique Lyon » → « BOUTIQUELYON ». */
export const shopCode = (shop: string) =>
  shop
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, 16) || 'SHOP';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      shop: { type: 'string', default: 'Boutique Lyon' },
      sensors: { type: 'string', default: '12' },
      rate: { type: 'string', default: '1' },
      transport: { type: 'string' },
      url: { type: 'string', default: 'http://localhost:3000' },
      key: { type: 'string' },
      email: { type: 'string', default: 'demo@vigie.fr' },
      password: { type: 'string', default: 'vigie-demo-2024' },
      duration: { type: 'string' },
      'make-batch': { type: 'string' },
      out: { type: 'string', default: 'lot-vigie' },
      factory: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const count = Number(values.sensors);
  const rate = Number(values.rate);
  if (!Number.isInteger(count) || count < 1 || count > 500) fail(`--sensors : un entier entre 1 et 500 est attendu.\n${USAGE}`);
  if (!Number.isFinite(rate) || rate <= 0 || rate > 50) fail(`--rate : un nombre entre 0,01 et 50 est attendu.\n${USAGE}`);
  if (values.transport && !['mqtt', 'http'].includes(values.transport)) fail(`--transport : mqtt ou http.\n${USAGE}`);
  const base = values.url.replace(/\/$/, '');
  if (values['make-batch'] !== undefined) {
    const size = Number(values['make-batch']);
    if (!Number.isInteger(size) || size < 1 || size > 1000) fail(`--make-batch : un entier entre 1 et 1 000 est attendu.\n${USAGE}`);
    const devices = await makeBatch(size, values.out);
    for (const device of devices.slice(0, 3)) console.log(await terminalLabel(device));
    console.log(`Lot de ${size} appareil${size > 1 ? 's' : ''} écrit dans ${values.out}/lot.csv, étiquettes dans ${values.out}/etiquettes.html.
Ensuite : npm run devices:import -- ${values.out}/lot.csv (serveur arrêté sur la base embarquée),
puis npm start et npm run simulate -- --factory ${values.out}/lot.csv`);
    return;
  }
  if (values.factory !== undefined) {
    let devices;
    try {
      devices = readBatch(values.factory);
    } catch (error) {
      fail(`Lot illisible (${values.factory}) :\n${(error as Error).message}`);
    }
    const post = async (path: string, body: unknown, token?: string) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
    };
    const stop = runFactoryDevices({ devices, post, rate, log: (line) => console.log(line) });
    console.log(
      `${devices.length} appareil(s) d’usine allumé(s) vers ${base}. Installez-les depuis « Installer un appareil ». Ctrl+C pour arrêter.`,
    );
    const end = () => {
      stop();
      process.exit(0);
    };
    process.on('SIGINT', end);
    process.on('SIGTERM', end);
    if (values.duration) setTimeout(end, Number(values.duration) * 1000);
    return;
  }
  const shop = values.shop;
  const code = shopCode(shop);

  let key = values.key ?? process.env['VIGIE_INSTALLATION_KEY'];
  if (!key) {
    const { accessToken } = await api<{ accessToken: string }>(`${base}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email: values.email, password: values.password }),
    }).catch((error: Error) => fail(`Connexion impossible avec ${values.email} : ${error.message}`));
    ({ installationKey: key } = await api<{ installationKey: string }>(`${base}/api/organization/installation-key`, {
      headers: { authorization: `Bearer ${accessToken}` },
    }));
  }

  // Each device announces its own silence limit: a few missed reports, and it shows as offline.
  const inactivityTimeoutSeconds = Math.max(30, Math.ceil(10 / rate));
  const provision = (serial: string, kind: DeviceKind, name: string, model: string) =>
    api<ProvisionResponse>(`${base}/api/devices/provision`, {
      method: 'POST',
      body: JSON.stringify({ installationKey: key, serial, kind, name, model, inactivityTimeoutSeconds, site: shop }),
    }).catch((error: Error) => fail(`Installation de ${serial} refusée : ${error.message}`));

  const gateway = await provision(`${code}-GW01`, 'emitter', `Passerelle ${shop}`.slice(0, 100), 'Vigie Passerelle G1');
  const sensors: SimulatedSensor[] = shopSensors(code, count).map((sensor) => ({
    ...sensor,
    name: `${sensor.name} · ${shop}`.slice(0, 100),
  }));
  for (const sensor of sensors) await provision(sensor.serial, 'sensor', sensor.name, sensor.model);
  console.log(`« ${shop} » installé : 1 passerelle et ${sensors.length} capteurs.`);

  const protocol = await api<ProtocolInfo>(`${base}/api/devices/protocol`);
  let transport = values.transport ?? (protocol.mqttPort ? 'mqtt' : 'http');
  let client: MqttClient | undefined;
  if (transport === 'mqtt') {
    if (!protocol.mqttPort) fail('Ce serveur Vigie n’a pas MQTT (port occupé ?) : relancez avec --transport http ou définissez MQTT_PORT.');
    const host = new URL(base).hostname;
    client = await mqtt
      .connectAsync(`mqtt://${host}:${protocol.mqttPort}`, {
        clientId: gateway.deviceId,
        username: gateway.deviceId,
        password: gateway.accessToken,
        reconnectPeriod: 2000,
      })
      .catch((error: Error) => {
        console.warn(`MQTT indisponible (${error.message}) : envoi en HTTP.`);
        transport = 'http';
        return undefined;
      });
  }
  console.log(`Envoi de ${rate} lecture(s)/s par capteur en ${transport.toUpperCase()} vers ${base}. Ctrl+C pour arrêter.`);

  const send = async (readings: TelemetryReading[]) => {
    const body = JSON.stringify(readings);
    if (client) {
      await client.publishAsync(`vigie/devices/${gateway.deviceId}/telemetry`, body, { qos: 1 });
    } else {
      await api(`${base}/api/devices/telemetry`, { method: 'POST', body, headers: { authorization: `Bearer ${gateway.accessToken}` } });
    }
  };

  const periodMs = 1000 / rate;
  let ticks = 0;
  let sent = 0;
  let failures = 0;
  const tick = async () => {
    const t = Date.now();
    ticks += 1;
    const readings: TelemetryReading[] = sensors.map((sensor) => ({
      sensor: sensor.serial,
      id: `${sensor.serial}-${t}`,
      ts: t,
      values: measure(sensor, t, Math.max(1, periodMs / 1000)),
    }));
    // The transmitter reports its own link quality now and then, which keeps it online.
    if (ticks % Math.max(1, Math.round(rate * 10)) === 1)
      readings.push({ id: `${gateway.deviceId}-${t}`, ts: t, values: { rssi: -55 - Math.round(Math.random() * 10) } });
    try {
      await send(readings);
      sent += readings.length;
    } catch (error) {
      failures += 1;
      if (failures % 10 === 1) console.warn(`Envoi refusé : ${(error as Error).message}`);
    }
  };
  const timer = setInterval(() => void tick(), periodMs);
  const report = setInterval(() => console.log(`${sent.toLocaleString('fr-FR')} lectures envoyées`), 10_000);
  const stop = async () => {
    clearInterval(timer);
    clearInterval(report);
    await client?.endAsync();
    console.log(`Arrêt du simulateur : ${sent.toLocaleString('fr-FR')} lectures envoyées.`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (values.duration) setTimeout(() => void stop(), Number(values.duration) * 1000);
}

await main();
