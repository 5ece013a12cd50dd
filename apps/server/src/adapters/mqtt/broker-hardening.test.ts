import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedHeader } from '../../test/mqtt-packets.ts';
import { connectDevice, countRows, provision } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';
import { createPacketSizeGuard } from './packet-guard.ts';

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
