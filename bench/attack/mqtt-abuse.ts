/**
 * Family 6 — MQTT abuse against the embedded broker: wrong credentials, another device's client id
 * or topic, oversized and malformed payloads, QoS 2, retained messages, wildcards in a publish
 * topic and in subscriptions. A failure is a crash, a write accepted for another device, or junk
 * stored; each device's export must hold exactly the readings it was entitled to write.
 */
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import mqtt, { type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { call, Tally } from './support.ts';
import { provisionSensors, storedValues } from './sigkill.ts';
import type { World } from './world.ts';

/** Connects, or answers the refusal. */
async function tryConnect(url: string, options: mqtt.IClientOptions): Promise<MqttClient | Error> {
  return mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5000, ...options }).catch((error: unknown) => error as Error);
}

/** Raw bytes on a fresh connection (CONNECT as `deviceId`, then `packets`); whether the broker closed it. */
async function raw(url: string, deviceId: string, token: string, packets: Buffer[]): Promise<{ closed: boolean }> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let closed = false;
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  socket.on('data', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      clientId: deviceId,
      keepalive: 30,
      username: deviceId,
      password: Buffer.from(token),
    }),
  );
  await delay(300);
  for (const packet of packets) if (!closed) socket.write(packet);
  await delay(1000);
  socket.destroy();
  return { closed };
}

const publishPacket = (topic: string, payload: string | Buffer, qos: 0 | 1 | 2 = 1, messageId = 1) =>
  mqttPacket.generate({ cmd: 'publish', topic, payload, qos, messageId, retain: false, dup: false });

export async function mqttAbuse(w: World): Promise<Tally> {
  const tally = new Tally();
  const [a, b] = await provisionSensors(w, 2, 'MQTT');
  if (!a || !b) throw new Error('Installation des appareils impossible');
  const from = Date.now() - 60_000;
  // A unique value per reading, within a temperature's range: value / 10 (666 → 66,6 °C).
  const reading = (value: number) => JSON.stringify({ id: `mqtt-${value}`, ts: from + value, values: { temperature: value / 10 } });
  const allowedA = new Set<number>();

  // Credentials.
  for (const [label, options] of [
    ['mauvais jeton', { clientId: a.deviceId, username: a.deviceId, password: 'pas-le-jeton' }],
    ['jeton d’un autre', { clientId: a.deviceId, username: a.deviceId, password: b.accessToken }],
    ['identifiant client d’un autre', { clientId: b.deviceId, username: a.deviceId, password: a.accessToken }],
    ['sans identifiants', { clientId: a.deviceId }],
    ['utilisateur d’un autre', { clientId: a.deviceId, username: b.deviceId, password: a.accessToken }],
  ] as const) {
    const client = await tryConnect(w.server.mqttUrl, options);
    const refused = client instanceof Error;
    if (!refused) await client.endAsync(true);
    tally.check(refused, () => `MQTT ${label} : connexion acceptée`);
  }

  const clientA = await tryConnect(w.server.mqttUrl, { clientId: a.deviceId, username: a.deviceId, password: a.accessToken });
  const clientB = await tryConnect(w.server.mqttUrl, { clientId: b.deviceId, username: b.deviceId, password: b.accessToken });
  if (clientA instanceof Error || clientB instanceof Error)
    throw new Error(`Connexion MQTT refusée : ${String(clientA)} ${String(clientB)}`);

  // A listens everywhere it can: it must hear nothing of B.
  const heardByA: string[] = [];
  clientA.on('message', (topic) => heardByA.push(topic));
  for (const filter of ['#', 'vigie/#', `vigie/devices/${b.deviceId}/#`, 'vigie/devices/+/telemetry', '$SYS/#']) {
    await clientA.subscribeAsync(filter, { qos: 1 }).catch(() => undefined);
  }

  const publish = (client: MqttClient, topic: string, payload: string | Buffer, options: mqtt.IClientPublishOptions) =>
    Promise.race([
      client.publishAsync(topic, payload, options).then(
        () => 'acquitté',
        (error: unknown) => `refusé (${String(error)})`,
      ),
      delay(2000).then(() => 'sans réponse'),
    ]);

  // Legitimate readings of A (QoS 1, QoS 0).
  for (const value of [1, 2]) {
    await publish(clientA, `vigie/devices/${a.deviceId}/telemetry`, reading(value), { qos: 1 });
    allowedA.add(value);
  }
  // QoS 2 and retained: stored at most once, never as another device's.
  await publish(clientA, `vigie/devices/${a.deviceId}/telemetry`, reading(3), { qos: 2 });
  allowedA.add(3);
  await publish(clientA, `vigie/devices/${a.deviceId}/telemetry`, reading(4), { qos: 1, retain: true });
  allowedA.add(4);
  // Junk on A's own topic: nothing stored.
  for (const junk of [
    '{"values": {"temperature": ',
    'pas du JSON',
    '{"values": {"temperature": "chaud"}}',
    '{"values": {"x\u0000": 1}}',
    '[]',
    'null',
  ]) {
    await publish(clientA, `vigie/devices/${a.deviceId}/telemetry`, junk, { qos: 1 });
  }
  await publish(
    clientA,
    `vigie/devices/${a.deviceId}/telemetry`,
    // An id beyond 2^53 (written raw: JSON allows it, a double does not hold it) is refused, not stored.
    `{"id": 9007199254740993, "ts": ${from + 5}, "values": {"temperature": 5}}`,
    {
      qos: 1,
    },
  );
  // A writing as B: on B's topic, on B's other topics, through B's serial.
  for (const topic of [
    `vigie/devices/${b.deviceId}/telemetry`,
    `vigie/devices/${b.deviceId}/errors`,
    'vigie/devices/telemetry',
    `vigie/devices/${b.deviceId}`,
  ]) {
    await publish(clientA, topic, reading(666), { qos: 1 });
  }
  await publish(
    clientA,
    `vigie/devices/${a.deviceId}/telemetry`,
    JSON.stringify({ sensor: b.deviceId, id: 'mqtt-667', values: { temperature: 66.7 } }),
    {
      qos: 1,
    },
  );
  await clientA.endAsync(true).catch(() => undefined);

  // Below the client library: wildcards in a publish topic, a huge announced length, QoS 2 by hand.
  const rawTries: [string, Buffer[]][] = [
    ['publication sur « + »', [publishPacket('vigie/devices/+/telemetry', reading(668))]],
    ['publication sur « # »', [publishPacket('vigie/devices/#', reading(669))]],
    ['publication vers B', [publishPacket(`vigie/devices/${b.deviceId}/telemetry`, reading(670))]],
    ['charge de 2 Mio', [publishPacket(`vigie/devices/${a.deviceId}/telemetry`, Buffer.alloc(2 * 1024 * 1024, 0x20))]],
    ['en-tête annonçant 250 Mio', [Buffer.from([0x32, 0xff, 0xff, 0xff, 0x7f, 0x00, 0x01, 0x61])]],
    ['paquet inconnu', [Buffer.from([0xf0, 0x00])]],
    ['QoS 3', [Buffer.from([0x36, 0x05, 0x00, 0x01, 0x61, 0x00, 0x01])]],
  ];
  for (const [label, packets] of rawTries) {
    await raw(w.server.mqttUrl, a.deviceId, a.accessToken, packets);
    const health = await call(w.server.base, 'GET', '/api/health');
    tally.check(health.status === 200, () => `après « ${label} » : /api/health ${health.status}`);
  }

  // B still works, and A heard none of it.
  await publish(clientB, `vigie/devices/${b.deviceId}/telemetry`, reading(1), { qos: 1 });
  await delay(1000);
  await clientB.endAsync(true).catch(() => undefined);
  const leaked = heardByA.filter((topic) => topic.includes(b.deviceId));
  tally.check(leaked.length === 0, () => `A a reçu ${leaked.length} messages de B (${leaked[0]})`);

  // What was stored: A's own readings once each, B's only its own.
  const storedA = await storedValues(w, a.deviceId, from - 1000, 10);
  const storedB = await storedValues(w, b.deviceId, from - 1000, 10);
  const junkA = [...storedA.keys()].filter((value) => !allowedA.has(value));
  tally.check(junkA.length === 0, () => `A : valeurs enregistrées qui n'auraient pas dû l'être : ${junkA.join(', ')}`);
  for (const value of allowedA) {
    tally.check(
      (storedA.get(value) ?? 0) <= 1 && (value > 2 || storedA.get(value) === 1),
      () => `A : la lecture ${value} est enregistrée ${storedA.get(value) ?? 0} fois`,
    );
  }
  const foreign = [...storedB.keys()].filter((value) => value !== 1);
  tally.check(
    foreign.length === 0 && storedB.get(1) === 1,
    () => `B : ${JSON.stringify([...storedB.entries()])} (seulement sa lecture 1 attendue)`,
  );
  return tally;
}
