/**
 * The MQTT fleet scenario of `npm run bench:ingest`: 1 000 devices stay connected, each publishing
 * one reading per message at QoS 1 and the next message once its PUBACK is back, as real sensors
 * do. The same clients then run against a bare Aedes broker (bench/bare-aedes.mjs), in the same
 * run: messages acknowledged per second and PUBACK latency, for Vigie and for the baseline.
 */
import { execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { type BenchServer, freePort, root } from './support';

export const FLEET_DEVICES = 1000;
const WARMUP_MS = 2000;
const MEASURE_MS = Number(process.env['BENCH_FLEET_MS'] ?? 8000);
const CONNECT_CONCURRENCY = 50;

export interface FleetFigures {
  messagesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Cores used during the measure (1 = one full core): the broker's process, and the 1 000 clients'. */
  brokerCores: number;
  clientCores: number;
}

/** Clock ticks per second of /proc/<pid>/stat (Linux); NaN elsewhere, and the cores print as such. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    return Number.NaN;
  }
})();

/** CPU seconds used so far by a process (user + system), from /proc; NaN where there is none. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function connectFleet(url: string, options: (index: number) => IClientOptions): Promise<MqttClient[]> {
  const clients: MqttClient[] = new Array(FLEET_DEVICES);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECT_CONCURRENCY }, async () => {
      for (let index = next++; index < FLEET_DEVICES; index = next++) {
        clients[index] = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 30_000, ...options(index) });
      }
    }),
  );
  return clients;
}

/**
 * Every client publishes one reading, waits for its PUBACK, publishes the next: until the end of
 * the phase. The CPU used by the broker (`brokerPid`) and by this process is read at both ends of
 * the measure, which shows which side limits the figure.
 */
async function drive(clients: MqttClient[], topicOf: (index: number) => string, brokerPid: number | undefined): Promise<FleetFigures> {
  const warmEnd = Date.now() + WARMUP_MS;
  const end = warmEnd + MEASURE_MS;
  const latencies: number[] = [];
  let acked = 0;
  const cpu = () => ({ broker: cpuSeconds(brokerPid), clients: process.cpuUsage() });
  let from = cpu();
  let to = from;
  const marks = [setTimeout(() => (from = cpu()), WARMUP_MS), setTimeout(() => (to = cpu()), WARMUP_MS + MEASURE_MS)];
  await Promise.all(
    clients.map(async (client, index) => {
      const topic = topicOf(index);
      while (Date.now() < end) {
        const sent = performance.now();
        await client.publishAsync(topic, JSON.stringify({ ts: Date.now(), values: { temperature: 4 + Math.random() } }), { qos: 1 });
        const now = Date.now();
        if (now >= warmEnd && now < end) {
          acked += 1;
          latencies.push(performance.now() - sent);
        }
      }
    }),
  );
  for (const mark of marks) clearTimeout(mark);
  latencies.sort((a, b) => a - b);
  const seconds = MEASURE_MS / 1000;
  const clientMicros = to.clients.user + to.clients.system - from.clients.user - from.clients.system;
  return {
    messagesPerSecond: acked / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    brokerCores: (to.broker - from.broker) / seconds,
    clientCores: clientMicros / 1e6 / seconds,
  };
}

/** Vigie's broker, with the devices provisioned on `server`. */
export async function vigieFleet(server: BenchServer, devices: { deviceId: string; accessToken: string }[]): Promise<FleetFigures> {
  const clients = await connectFleet(server.mqttUrl, (index) => {
    const device = devices[index];
    if (!device) throw new Error('Appareil manquant');
    return { clientId: device.deviceId, username: device.deviceId, password: device.accessToken };
  });
  try {
    return await drive(clients, (index) => `vigie/devices/${devices[index]?.deviceId}/telemetry`, server.child.pid);
  } finally {
    await Promise.all(clients.map((client) => client.endAsync()));
  }
}

/** The same fleet against a bare Aedes broker in its own process. */
export async function bareAedesFleet(): Promise<FleetFigures> {
  const port = await freePort();
  const child = fork(path.join(root, 'bench/bare-aedes.mjs'), [String(port)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`Le broker Aedes nu s’est arrêté (${code})`)));
    });
    const clients = await connectFleet(`mqtt://127.0.0.1:${port}`, (index) => ({ clientId: `bare-${index}` }));
    try {
      return await drive(clients, (index) => `vigie/devices/bare-${index}/telemetry`, child.pid);
    } finally {
      await Promise.all(clients.map((client) => client.endAsync()));
    }
  } finally {
    child.kill('SIGTERM');
  }
}
