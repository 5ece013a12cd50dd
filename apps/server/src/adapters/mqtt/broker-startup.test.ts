import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import mqtt, { type MqttClient } from 'mqtt';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { provision } from '../../test/device-helpers.ts';
import { startMosquitto, type Mosquitto } from '../../test/mosquitto.ts';
import { createTestApp, databaseKind, type TestApp } from '../../test/test-app.ts';
import { type BrokerStartup, startServer } from '../../server.ts';

const RESPONSE_TOPIC = '$CONTROL/dynamic-security/v1/response';

/**
 * A TCP relay between Vigie and Mosquitto that reads the broker's MQTT packets: it can withhold
 * the dynamic-security answers (a broker too busy to answer), or close the connection in place
 * of one answer, after the broker applied the request (what another instance adding Vigie's role
 * does, since it closes every connection of the account).
 */
interface ControlRelay {
  url: string;
  /** Answers withheld while true. */
  silent: boolean;
  withheld: number;
  /** The next answers matching this close their connection instead of arriving, `cuts` times. */
  cutOn: RegExp | null;
  cuts: number;
  cut: number;
  close(): Promise<void>;
}

/** Whole MQTT packets at the start of `buffer`, and what is left of an incomplete one. */
function packets(buffer: Buffer): { whole: Buffer[]; rest: Buffer } {
  const whole: Buffer[] = [];
  let offset = 0;
  for (;;) {
    let length = 0;
    let position = offset + 1;
    let byte = 128;
    for (let multiplier = 1; byte & 128; multiplier *= 128) {
      if (position >= buffer.length) return { whole, rest: buffer.subarray(offset) };
      byte = buffer.readUInt8(position++);
      length += (byte & 127) * multiplier;
    }
    if (position + length > buffer.length) return { whole, rest: buffer.subarray(offset) };
    whole.push(buffer.subarray(offset, position + length));
    offset = position + length;
  }
}

/** A PUBLISH's topic (its fixed header, then the topic's length on two bytes). */
function publishedTopic(packet: Buffer): string | null {
  if (packet.readUInt8(0) >> 4 !== 3) return null;
  let position = 1;
  while (packet.readUInt8(position) & 128) position += 1;
  position += 1;
  const length = packet.readUInt16BE(position);
  return packet.toString('utf8', position + 2, position + 2 + length);
}

async function startControlRelay(broker: Mosquitto): Promise<ControlRelay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(broker.port, '127.0.0.1');
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    let pendingBytes = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      const { whole, rest } = packets(Buffer.concat([pendingBytes, chunk]));
      pendingBytes = Buffer.from(rest);
      for (const packet of whole) {
        if (publishedTopic(packet) === RESPONSE_TOPIC) {
          if (relay.silent) {
            relay.withheld += 1;
            continue;
          }
          if (relay.cutOn && relay.cuts > 0 && relay.cutOn.test(packet.toString('utf8'))) {
            relay.cuts -= 1;
            relay.cut += 1;
            end();
            return;
          }
        }
        client.write(packet);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const account = new URL(broker.url);
  account.port = String(port);
  const relay: ControlRelay = {
    url: account.toString().replace(/\/$/, ''),
    silent: false,
    withheld: 0,
    cutOn: null,
    cuts: 0,
    cut: 0,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return relay;
}

/** A logger whose French lines the test reads. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), text: () => lines.join('') };
}

/**
 * An instance behind an external broker whose dynamic-security answers are late or lost: start-up
 * waits for them, with its API answering 503, instead of ending the process.
 */
describe(`external broker start-up when dynamic security does not answer, on ${databaseKind}`, () => {
  let broker: Mosquitto;
  let relay: ControlRelay;
  let t: TestApp | undefined;
  const devices: MqttClient[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    broker = await startMosquitto();
    relay = await startControlRelay(broker);
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    for (const device of devices.splice(0)) device.end(true);
    await t?.close();
    t = undefined;
    relay.silent = false;
    relay.cutOn = null;
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await relay?.close();
    await broker?.stop();
  });

  /** Vigie through the relay, its timing shortened; resolves once listening, with its start-up still under way. */
  async function start(brokerStartup: BrokerStartup) {
    const app = await createTestApp({
      env: { MQTT_BROKER_URL: relay.url, MQTT_BROKER_CLIENT_ID: `vigie-start-${randomUUID().slice(0, 8)}`, MQTT_BROKER_CONSUMERS: '2' },
    });
    t = app;
    const { logger, text } = capturedLogger();
    const outcome: { settled: 'pending' | 'ready' | Error } = { settled: 'pending' };
    const started = startServer(
      app.app,
      { ...app.config, port: 0, host: '127.0.0.1', mqttPort: 0, mqttHost: '127.0.0.1', mqttPortExplicit: true },
      logger,
      { brokerStartup },
    ).then(
      () => {
        outcome.settled = 'ready';
      },
      (error: unknown) => {
        outcome.settled = error instanceof Error ? error : new Error(String(error));
      },
    );
    // Listening before the broker is joined, so that it can say it is not ready.
    await expect.poll(() => app.app.server.listening || outcome.settled !== 'pending', { timeout: 15_000 }).toBe(true);
    expect(outcome.settled).toBe('pending');
    const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    return { app, base, started, outcome, log: text };
  }

  /** The device's token works in the broker itself. */
  async function connects(device: { deviceId: string; accessToken: string }): Promise<boolean> {
    const client = await mqtt
      .connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
        clientId: device.deviceId,
        username: device.deviceId,
        password: device.accessToken,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      })
      .catch(() => null);
    if (client) devices.push(client);
    return client !== null;
  }

  it('stays up and answers 503 while the broker withholds its answers, trying again with a growing delay, then starts once they come', async () => {
    relay.silent = true;
    const { app, base, started, outcome, log } = await start({ attempts: 1000, firstDelayMs: 50, maxDelayMs: 400, commandTimeoutMs: 300 });
    // Several requests timed out, each followed by another attempt.
    await expect.poll(() => relay.withheld, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await expect.poll(log, { timeout: 5_000 }).toMatch(/Broker MQTT pas encore prêt \(essai 2 sur 1000\)/);
    expect(outcome.settled).toBe('pending');
    for (const path of ['/api/health', '/api/ready']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ message: expect.stringMatching(/broker MQTT/) as unknown });
    }

    relay.silent = false;
    await started;
    expect(outcome.settled).toBe('ready');
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    // Ready means the broker applies tokens: a device's works there at once.
    const owner = await app.createAccount();
    expect(await connects(await provision(app, owner, 'sensor'))).toBe(true);
    expect(unhandled).toEqual([]);
  }, 90_000);

  it('sends a request again when its connection closes before the answer, at start-up and when a token is renewed', async () => {
    // At start-up: the broker applies the role's creation, then closes the connection.
    relay.cutOn = /"command":"createRole"/;
    relay.cuts = 1;
    const { app, base, started, outcome } = await start({ attempts: 1, firstDelayMs: 50, maxDelayMs: 50 });
    await started;
    expect(outcome.settled).toBe('ready');
    expect(relay.cut).toBe(1);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);

    // Later: a renewed token whose answer is lost with the connection still reaches the broker.
    const owner = await app.createAccount();
    const device = await provision(app, owner, 'sensor');
    relay.cutOn = /"command":"setClientPassword"/;
    relay.cuts = 1;
    const renewed = await app.app.inject({ method: 'POST', url: `/api/sensor/${device.deviceId}/token`, headers: owner.auth });
    expect(renewed.statusCode).toBe(201);
    expect(relay.cut).toBe(2);
    expect(await connects({ deviceId: device.deviceId, accessToken: renewed.json<{ accessToken: string }>().accessToken })).toBe(true);
    expect(await connects(device)).toBe(false);
    expect(unhandled).toEqual([]);
  }, 90_000);
});
