import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { endpoints, type DeviceKind, type ProtocolInfo, type ProvisionResponse, type TelemetryReading } from '@vigie/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { makeBatch, readBatch, runFactoryDevices, terminalLabel } from './factory.ts';
import { FAULT_KINDS, FAULT_LABELS, type Fault, type FaultKind, parseFaultOption } from './faults.ts';
import { lorawanShop, runLorawan } from './lorawan.ts';
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
  --url URL           adresse du serveur Vigie (défaut : http://localhost:$PORT, 3000 sans PORT)
  --key CLÉ           clé d'installation (sinon lue avec --email/--password)
  --email E --password P   compte dont la clé est lue (défaut : le compte de démonstration)
  --duration S        s'arrêter après S secondes (défaut : jamais ; Ctrl+C pour arrêter)
  --mqtt-version V    3.1.1 ou 5 (défaut : 3.1.1)
  --acked FICHIER     écrit l'identifiant de chaque lecture acquittée (PUBACK, ou réponse HTTP 2xx), une par ligne

Pannes (à partir du lancement, pour voir l’analyse prédictive les repérer)\u202f:
  --fault PANNE[:NUMÉRO]   fait tomber en panne le capteur de ce numéro de série (défaut\u202f: le premier
                           réfrigérateur du magasin)\u202f; l’option se répète pour plusieurs pannes. PANNE\u202f:
      compressor_failing   le compresseur faiblit\u202f: cycles de plus en plus longs, puis la température
                           dépasse +8\u00a0°C au bout de 4 à 7\u00a0heures environ
      door_left_open       porte restée ouverte\u202f: l’appareil se réchauffe d’environ 4\u00a0°C et le contact
                           de porte du magasin la signale ouverte
      defrost_stuck        dégivrage bloqué\u202f: la résistance reste allumée, +8\u00a0°C dépassés en 30\u00a0min environ
      sensor_drift         la sonde dérive de +1,5\u00a0°C par jour, l’appareil allant bien
      sensor_stuck         la sonde répète la valeur lue au début de la panne
      power_cut            coupure de courant\u202f: l’appareil se réchauffe vers la température du magasin
                           (+8\u00a0°C dépassés en une heure environ), puis refroidit à la fin de la panne
  --fault-minutes M   la panne cesse après M minutes (défaut\u202f: elle dure tant que le simulateur tourne)

Capteurs LoRaWAN (sans matériel, voir docs/protocole-appareils.md)\u202f:
  --lorawan tts|chirpstack   crée une intégration The Things Stack v3 ou ChirpStack v4, enregistre quatre
                           Milesight EM300-TH par leur DevEUI (un cinquième reste à adopter) et envoie
                           leurs trames au format du serveur de réseau (--shop, --url, --email/--password
                           et --fault s’appliquent)
  --interval S        secondes entre deux trames d’un appareil (défaut\u202f: 1/--rate, soit 1\u00a0s)

Appareils d’usine (étiquette à scanner, voir docs/protocole-appareils.md) :
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

/**
 * The faults asked for on the command line, by serial, starting at `now`: on the named sensor, or
 * the shop's first fridge; a door left open also shows on the shop's first door contact.
 */
function faultsOf(
  requested: { kind: FaultKind; serial: string | null }[],
  sensors: SimulatedSensor[],
  now: number,
  minutes: number,
): Map<string, Fault[]> {
  const bySerial = new Map<string, Fault[]>();
  const cold = sensors.filter((sensor) => sensor.profile === 'fridge' || sensor.profile === 'freezer');
  const door = sensors.find((sensor) => sensor.profile === 'door');
  const time = new Date(now).toLocaleTimeString('fr-FR', { hour: '2-digit', minute: '2-digit' });
  for (const { kind, serial } of requested) {
    const target = serial ? sensors.find((sensor) => sensor.serial === serial) : cold.find((sensor) => sensor.profile === 'fridge');
    if (!target)
      fail(
        serial
          ? `--fault\u202f: aucun capteur ${serial} dans ce magasin (réfrigérateurs et congélateurs\u202f: ${cold.map((s) => s.serial).join(', ') || 'aucun'}).`
          : '--fault\u202f: ce magasin n’a pas de réfrigérateur ; ajoutez des capteurs avec --sensors.',
      );
    if (target.profile !== 'fridge' && target.profile !== 'freezer' && !(kind === 'door_left_open' && target.profile === 'door'))
      fail(
        `--fault\u202f: ${target.serial} n’est ni un réfrigérateur ni un congélateur (${FAULT_KINDS.join(', ')} s’appliquent au froid).`,
      );
    const fault: Fault = { kind, from: now, to: now + minutes * 60_000 };
    const targets = kind === 'door_left_open' && door && target !== door ? [target, door] : [target];
    for (const sensor of targets) bySerial.set(sensor.serial, [...(bySerial.get(sensor.serial) ?? []), fault]);
    const until = Number.isFinite(minutes) ? ` pendant ${minutes.toLocaleString('fr-FR')}\u00a0min` : '';
    console.log(
      `Panne simulée depuis ${time}${until}\u202f: ${FAULT_LABELS[kind]} sur ${targets.map((s) => `${s.serial} (${s.name})`).join(' et ')}.`,
    );
  }
  return bySerial;
}

/** `--factory`: the devices of a batch, switched on as they leave the factory, until they are installed. */
function runFactory(base: string, batchPath: string, rate: number, duration: string | undefined): void {
  let devices;
  try {
    devices = readBatch(batchPath);
  } catch (error) {
    fail(`Lot illisible (${batchPath}) :\n${(error as Error).message}`);
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
  if (duration) setTimeout(end, Number(duration) * 1000);
}

/** `--lorawan`: the shop's sensors heard through a LoRaWAN network server's webhook (TTS or ChirpStack). */
async function runLorawanShop(options: {
  base: string;
  network: string;
  shop: string;
  code: string;
  rate: number;
  interval: string | undefined;
  email: string;
  password: string;
  duration: string | undefined;
  requestedFaults: { kind: FaultKind; serial: string | null }[];
  faultMinutes: number;
}): Promise<void> {
  if (options.network !== 'tts' && options.network !== 'chirpstack') fail(`--lorawan\u202f: tts ou chirpstack.\n${USAGE}`);
  const intervalSeconds = options.interval === undefined ? 1 / options.rate : Number(options.interval);
  if (!(intervalSeconds >= 0.1 && intervalSeconds <= 3600))
    fail(`--interval\u202f: un nombre de secondes entre 0,1 et 3\u00a0600 est attendu.\n${USAGE}`);
  const devices = lorawanShop(options.code, options.shop);
  const faults = faultsOf(
    options.requestedFaults,
    devices.map((device) => device.sensor),
    Date.now(),
    options.faultMinutes,
  );
  const stop = await runLorawan({
    base: options.base,
    type: options.network,
    email: options.email,
    password: options.password,
    shop: options.shop,
    devices,
    faults,
    intervalSeconds,
    log: (line) => console.log(line),
    fail,
  });
  const end = async () => {
    await stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void end());
  process.on('SIGTERM', () => void end());
  if (options.duration) setTimeout(() => void end(), Number(options.duration) * 1000);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      shop: { type: 'string', default: 'Boutique Lyon' },
      sensors: { type: 'string', default: '12' },
      rate: { type: 'string', default: '1' },
      transport: { type: 'string' },
      // The server of this shell: the port `npm start` took from the same environment.
      url: { type: 'string', default: `http://localhost:${/^\d{1,5}$/.test(process.env['PORT'] ?? '') ? process.env['PORT'] : '3000'}` },
      key: { type: 'string' },
      email: { type: 'string', default: 'demo@vigie.fr' },
      password: { type: 'string', default: 'vigie-demo-2024' },
      duration: { type: 'string' },
      'mqtt-version': { type: 'string', default: '3.1.1' },
      acked: { type: 'string' },
      'make-batch': { type: 'string' },
      out: { type: 'string', default: 'lot-vigie' },
      factory: { type: 'string' },
      fault: { type: 'string', multiple: true },
      'fault-minutes': { type: 'string' },
      lorawan: { type: 'string' },
      interval: { type: 'string' },
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
  if (!['3.1.1', '5'].includes(values['mqtt-version'])) fail(`--mqtt-version : 3.1.1 ou 5.\n${USAGE}`);
  const acked = values.acked ? fs.createWriteStream(values.acked, { flags: 'a' }) : null;
  const faultMinutes = values['fault-minutes'] === undefined ? Infinity : Number(values['fault-minutes']);
  if (!(faultMinutes > 0)) fail(`--fault-minutes\u202f: un nombre de minutes positif est attendu.\n${USAGE}`);
  let requestedFaults: { kind: FaultKind; serial: string | null }[] = [];
  try {
    requestedFaults = (values.fault ?? []).map(parseFaultOption);
  } catch (error) {
    fail(`--fault\u202f: ${(error as Error).message}\n${USAGE}`);
  }
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
    runFactory(base, values.factory, rate, values.duration);
    return;
  }
  const shop = values.shop;
  const code = shopCode(shop);

  if (values.lorawan !== undefined) {
    await runLorawanShop({
      base,
      network: values.lorawan,
      shop,
      code,
      rate,
      interval: values.interval,
      email: values.email,
      password: values.password,
      duration: values.duration,
      requestedFaults,
      faultMinutes,
    });
    return;
  }

  let key = values.key ?? process.env['VIGIE_INSTALLATION_KEY'];
  if (!key) {
    const { accessToken } = await api<{ accessToken: string }>(`${base}${endpoints.auth.login.path}`, {
      method: 'POST',
      body: JSON.stringify({ email: values.email, password: values.password }),
    }).catch((error: Error) => fail(`Connexion impossible avec ${values.email} : ${error.message}`));
    ({ installationKey: key } = await api<{ installationKey: string }>(`${base}${endpoints.installationKey.get.path}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    }));
  }

  // Each device announces its own silence limit: a few missed reports, and it shows as offline.
  const inactivityTimeoutSeconds = Math.max(30, Math.ceil(10 / rate));
  const provision = (serial: string, kind: DeviceKind, name: string, model: string) =>
    api<ProvisionResponse>(`${base}${endpoints.devices.provision.path}`, {
      method: 'POST',
      body: JSON.stringify({ installationKey: key, serial, kind, name, model, inactivityTimeoutSeconds, site: shop }),
    }).catch((error: Error) => fail(`Installation de ${serial} refusée : ${error.message}`));

  const gateway = await provision(`${code}-GW01`, 'emitter', `Passerelle ${shop}`.slice(0, 100), 'Vigie Passerelle G1');
  const sensors: SimulatedSensor[] = shopSensors(code, count).map((sensor) => ({
    ...sensor,
    name: `${sensor.name} · ${shop}`.slice(0, 100),
  }));
  const faults = faultsOf(requestedFaults, sensors, Date.now(), faultMinutes);
  for (const sensor of sensors) await provision(sensor.serial, 'sensor', sensor.name, sensor.model);
  console.log(`« ${shop} » installé : 1 passerelle et ${sensors.length} capteurs.`);

  const protocol = await api<ProtocolInfo>(`${base}${endpoints.devices.protocol.path}`);
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
        protocolVersion: values['mqtt-version'] === '5' ? 5 : 4,
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
      await api(`${base}${endpoints.devices.telemetry.path}`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${gateway.accessToken}` },
      });
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
      values: measure(sensor, t, Math.max(1, periodMs / 1000), faults.get(sensor.serial)),
    }));
    // The transmitter reports its own link quality now and then, which keeps it online.
    if (ticks % Math.max(1, Math.round(rate * 10)) === 1)
      readings.push({ id: `${gateway.deviceId}-${t}`, ts: t, values: { rssi: -55 - Math.round(Math.random() * 10) } });
    try {
      await send(readings);
      sent += readings.length;
      acked?.write(readings.map((reading) => `${reading.id ?? ''}\n`).join(''));
    } catch (error) {
      failures += 1;
      if (failures % 10 === 1) console.warn(`Envoi refusé : ${(error as Error).message}`);
    }
  };
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const sending = tick();
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
  }, periodMs);
  const report = setInterval(() => console.log(`${sent.toLocaleString('fr-FR')} lectures envoyées`), 10_000);
  const stop = async () => {
    clearInterval(timer);
    clearInterval(report);
    // What was sent before the stop is acknowledged (or refused) before the count is final.
    await Promise.race([Promise.all(inFlight), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await client?.endAsync();
    if (acked) await new Promise((resolve) => acked.end(resolve));
    console.log(`Arrêt du simulateur : ${sent.toLocaleString('fr-FR')} lectures envoyées.`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (values.duration) setTimeout(() => void stop(), Number(values.duration) * 1000);
}

await main();
