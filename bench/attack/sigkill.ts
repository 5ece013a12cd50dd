/**
 * Family 5 — devices publish readings over MQTT QoS 1, each with a unique id and value, while the
 * server is killed with SIGKILL and started again on the same data. Every reading whose PUBACK the
 * device received must be stored exactly once, and no reading twice, read back through the
 * readings CSV export as a user would.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import mqtt, { type MqttClient } from 'mqtt';
import { call, log, ok, pool, Tally } from './support.ts';
import type { World } from './world.ts';

interface Publisher {
  deviceId: string;
  acked: Set<number>;
  sent: number;
  client: MqttClient;
}

/**
 * The values of a sensor's temperature readings in its CSV export, and how many times each; times
 * `scale` (the families publish a unique number divided by it, to stay within the range of a temperature).
 */
export async function storedValues(w: World, sensorId: string, from: number, scale = 1): Promise<Map<number, number>> {
  const query = `key=temperature&from=${new Date(from).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`;
  const csv = await call(w.server.base, 'GET', `/api/sensor/${sensorId}/readings.csv?${query}`, {
    token: w.adminA.token,
    timeoutMs: 120_000,
  });
  if (csv.status !== 200) throw new Error(`readings.csv : ${csv.status} ${csv.text.slice(0, 200)}`);
  const counts = new Map<number, number>();
  for (const line of csv.text.split(/\r?\n/).slice(1)) {
    const value = line.split(';')[3];
    if (value === undefined || value === '') continue;
    const number = Math.round(Number(value.replace(',', '.')) * scale);
    counts.set(number, (counts.get(number) ?? 0) + 1);
  }
  return counts;
}

export async function provisionSensors(w: World, count: number, prefix: string): Promise<{ deviceId: string; accessToken: string }[]> {
  const { installationKey } = await ok<{ installationKey: string }>(w.server.base, 'GET', '/api/organization/installation-key', {
    token: w.adminA.token,
  });
  return pool(
    Array.from({ length: count }, (_, i) => i),
    4,
    (i) =>
      ok<{ deviceId: string; accessToken: string }>(w.server.base, 'POST', '/api/devices/provision', {
        body: { installationKey, serial: `${prefix}-${i}-${randomUUID().slice(0, 6)}`, kind: 'sensor', name: `${prefix} ${i + 1}` },
      }),
  );
}

export async function sigkillWhilePublishing(w: World, devices: number, kills: number, phaseMs: number): Promise<Tally> {
  const tally = new Tally();
  const provisioned = await provisionSensors(w, devices, 'KILL');
  // Past timestamps, one millisecond apart per reading: no two readings of a device share one.
  const from = Date.now() - 10 * 60_000;
  const publishers: Publisher[] = await Promise.all(
    provisioned.map(async (device) => ({
      deviceId: device.deviceId,
      acked: new Set<number>(),
      sent: 0,
      client: await mqtt.connectAsync(w.server.mqttUrl, {
        clientId: device.deviceId,
        username: device.deviceId,
        password: device.accessToken,
        reconnectPeriod: 300,
        connectTimeout: 5000,
      }),
    })),
  );
  let stopping = false;
  const lanes = publishers.map(async (publisher) => {
    const topic = `vigie/devices/${publisher.deviceId}/telemetry`;
    while (!stopping) {
      publisher.sent += 1;
      const value = publisher.sent;
      // A unique value per reading, within a temperature's range (−100 to 200 °C): value / 1000.
      const message = JSON.stringify({ id: `kill-${value}`, ts: from + value, values: { temperature: value / 1000 } });
      // While the server is down the client keeps the message and sends it again once reconnected.
      const acked = await Promise.race([
        publisher.client.publishAsync(topic, message, { qos: 1 }).then(
          () => true,
          () => false,
        ),
        delay(90_000).then(() => false),
      ]);
      if (acked) publisher.acked.add(value);
      else await delay(100);
    }
  });
  for (let kill = 0; kill < kills; kill += 1) {
    await delay(phaseMs);
    log(
      `  SIGKILL du serveur (pid ${w.server.child.pid ?? '?'}) après ${publishers.reduce((n, p) => n + p.acked.size, 0)} lectures acquittées`,
    );
    await w.server.stop('SIGKILL');
    await w.server.start();
    log('  serveur relancé');
  }
  await delay(phaseMs);
  stopping = true;
  await Promise.all(lanes);
  await Promise.all(publishers.map((publisher) => publisher.client.endAsync(true)));

  let acked = 0;
  let stored = 0;
  for (const publisher of publishers) {
    const counts = await storedValues(w, publisher.deviceId, from - 1000, 1000);
    acked += publisher.acked.size;
    stored += [...counts.values()].reduce((a, b) => a + b, 0);
    const lost = [...publisher.acked].filter((value) => !counts.has(value));
    const doubled = [...counts.entries()].filter(([, count]) => count > 1).map(([value]) => value);
    tally.check(
      lost.length === 0,
      () => `${publisher.deviceId} : ${lost.length} lectures acquittées perdues (${lost.slice(0, 5).join(', ')}…)`,
    );
    tally.check(
      doubled.length === 0,
      () => `${publisher.deviceId} : ${doubled.length} lectures en double (${doubled.slice(0, 5).join(', ')}…)`,
    );
  }
  tally.figures.push({
    label: `${kills} SIGKILL pendant la publication (${devices} appareils MQTT QoS 1)`,
    value: `${acked.toLocaleString('fr-FR')} lectures acquittées, ${stored.toLocaleString('fr-FR')} enregistrées`,
    ok: true,
  });
  return tally;
}
