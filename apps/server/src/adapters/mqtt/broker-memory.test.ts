import type { Socket } from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedHeader } from '../../test/mqtt-packets.ts';
import { countRows, provision } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

/**
 * The attack on the embedded broker: one device token, one publish announcing
 * 250 MiB. Written against the public protocol only (no import from the broker), so that it runs
 * unchanged on earlier versions of the server.
 */

const connectDevice = (url: string, device: { deviceId: string; accessToken: string }) =>
  mqtt.connectAsync(url, { clientId: device.deviceId, username: device.deviceId, password: device.accessToken, reconnectPeriod: 0 });

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
    } finally {
      await next.endAsync();
    }
  });
});
