import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, countRows, provision } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';
import { MAX_PACKET_BYTES } from './mqtt-broker.ts';
import { createPacketSizeGuard } from './packet-guard.ts';

/** An MQTT fixed header: the type byte, then the remaining length in 1 to 4 bytes. */
function fixedHeader(type: number, remaining: number): Buffer {
  const bytes = [type];
  let rest = remaining;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}

describe('the MQTT packet size guard', () => {
  const watch = (limit: number) => {
    const refused: number[] = [];
    return { accept: createPacketSizeGuard(limit, (announced) => refused.push(announced)), refused };
  };

  it('follows packets across chunks and lets those within the limit through', () => {
    const { accept, refused } = watch(100);
    const packets = Buffer.concat([
      fixedHeader(0x30, 100),
      Buffer.alloc(100, 1),
      fixedHeader(0xc0, 0),
      fixedHeader(0x30, 3),
      Buffer.from('abc'),
    ]);
    // One byte at a time: headers and bodies cut anywhere.
    for (const byte of packets) expect(accept(Buffer.from([byte]))).toBe(true);
    expect(accept(packets)).toBe(true);
    expect(refused).toEqual([]);
  });

  it('refuses a packet as soon as its header announces more than the limit, before any of its body', () => {
    const { accept, refused } = watch(1024);
    expect(accept(Buffer.concat([fixedHeader(0x30, 10), Buffer.alloc(10)]))).toBe(true);
    const huge = fixedHeader(0x30, 250 * 1024 * 1024);
    expect(accept(huge)).toBe(false);
    expect(refused).toHaveLength(1);
    expect(accept(Buffer.alloc(10))).toBe(false);
  });

  it('refuses a remaining length longer than four bytes', () => {
    const { accept, refused } = watch(Number.MAX_SAFE_INTEGER);
    expect(accept(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]))).toBe(false);
    expect(refused).toHaveLength(1);
  });
});

describe(`embedded broker under a huge publish (${databaseKind})`, () => {
  let t: TestApp;
  let mqttUrl: string;
  let owner: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    ({ mqttUrl } = await t.listen());
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  it('closes the connection after the header of a 250 MiB publish, and its memory stays bounded', async () => {
    const attacker = await provision(t, owner, 'sensor');
    const client = await connectDevice(mqttUrl, attacker);
    const socket = client.stream as Socket;
    const before = process.memoryUsage();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let sent = 0;
    let open = true;
    socket.once('close', () => (open = false));
    socket.on('error', () => (open = false));
    socket.write(fixedHeader(0x30, 250 * 1024 * 1024));
    // Up to 64 MiB of body, as fast as the connection takes it, until the server hangs up.
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    while (open && sent < 64 * 1024 * 1024) {
      sent += chunk.length;
      if (!socket.write(chunk)) {
        await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
      }
    }
    // A server that buffers everything would keep the connection: give it a moment to hang up.
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000))]);
    expect(open, 'the server closed the connection').toBe(false);
    client.end(true);
    const after = process.memoryUsage();
    const grownMiB = (after.arrayBuffers + after.heapUsed - before.arrayBuffers - before.heapUsed) / 1024 / 1024;
    expect(sent, 'the server hung up long before 64 MiB').toBeLessThan(32 * 1024 * 1024);
    expect(grownMiB).toBeLessThan(32);
    expect(await countRows(t, attacker.deviceId)).toBe(0);

    // The broker serves the next device as before, with a packet just under the limit.
    const device = await provision(t, owner, 'sensor');
    const next = await connectDevice(mqttUrl, device);
    try {
      await next.publishAsync(`vigie/devices/${device.deviceId}/telemetry`, JSON.stringify({ values: { temperature: 4.1 } }), { qos: 1 });
      expect(await countRows(t, device.deviceId)).toBe(1);
      expect(MAX_PACKET_BYTES).toBeGreaterThan(1024 * 1024);
    } finally {
      await next.endAsync();
    }
  });
});

describe(`embedded broker under a flood of messages (${databaseKind})`, () => {
  let t: TestApp;
  let mqttUrl: string;
  let owner: TestAccount;
  beforeAll(async () => {
    t = await createTestApp({ env: { MQTT_MAX_MESSAGES_PER_SECOND: '3' } });
    ({ mqttUrl } = await t.listen());
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  it('makes a device over its rate wait, tells it on its errors topic, and loses nothing it acknowledged', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await connectDevice(mqttUrl, device);
    try {
      const errors: string[] = [];
      client.on('message', (_topic, payload) => errors.push((JSON.parse(payload.toString()) as { message: string }).message));
      await client.subscribeAsync(`vigie/devices/${device.deviceId}/errors`, { qos: 0 });
      const topic = `vigie/devices/${device.deviceId}/telemetry`;
      // Seven at once with three a second allowed: the last ones wait their turn, then are stored.
      const acknowledged: number[] = [];
      await Promise.all(
        Array.from({ length: 7 }, (_, index) =>
          client
            .publishAsync(topic, JSON.stringify({ id: `r${index}`, values: { temperature: index } }), { qos: 1 })
            .then(() => acknowledged.push(index)),
        ),
      );
      expect(acknowledged).toHaveLength(7);
      expect(await countRows(t, device.deviceId)).toBe(7);
      await expect.poll(() => errors.length).toBeGreaterThanOrEqual(1);
      expect(errors[0]).toBe(
        'Trop de messages : 3 par seconde au plus pour un appareil. Les suivants attendent leur tour : espacez les envois.',
      );
      expect(client.connected).toBe(true);
    } finally {
      await client.endAsync();
    }
  });
});
