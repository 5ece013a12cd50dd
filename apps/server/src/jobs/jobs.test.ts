import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, provision, sendTelemetry } from '../test/device-helpers.ts';
import { openStream } from '../test/sse-client.ts';
import { setLastSeen } from '../test/test-dal.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind, isolatedDatabase } from '../test/test-app.ts';
import { announceOfflineDevices } from '../modules/devices/offline-devices.ts';
import { enforceRetention } from '../modules/telemetry/reading-retention.ts';

describe(`periodic jobs on ${databaseKind}`, () => {
  let t: TestApp;
  let baseUrl: string;
  let owner: TestAccount;
  let dropDatabase: () => Promise<void> = async () => {};

  // Retention is run here 29 days ahead: on PostgreSQL it gets a database of its own, so it cannot
  // drop the readings of the suites sharing the test database meanwhile.
  beforeAll(async () => {
    const isolated = await isolatedDatabase();
    if (isolated) dropDatabase = isolated.drop;
    t = await createTestApp({ env: { RETENTION_DAYS: '30', ...(isolated ? { DATABASE_URL: isolated.url } : {}) } });
    ({ baseUrl } = await t.listen());
    owner = await t.createAccount();
  });
  afterAll(async () => {
    await t.close();
    await dropDatabase();
  });

  it('deletes readings older than RETENTION_DAYS and keeps the rest', async () => {
    const device = await provision(t, owner, 'sensor');
    const day = 86_400_000;
    const now = Date.now();
    await sendTelemetry(t, device.accessToken, [
      { ts: now - 29 * day, temperature: 1 },
      { ts: now - 2 * day, temperature: 2 },
      { ts: now - 60_000, temperature: 3 },
    ]);
    expect(await countRows(t, device.deviceId)).toBe(3);
    // Twenty-nine days later, only the newest reading is still within 30 days.
    const deleted = await enforceRetention(t.app.services, now + 29 * day);
    expect(deleted).toBeGreaterThanOrEqual(2);
    expect(await countRows(t, device.deviceId)).toBe(1);
  });

  it('flags a device offline once it has been silent for longer than its inactivity timeout, and streams it', async () => {
    const device = await provision(t, owner, 'sensor');
    await t.app.inject({
      method: 'PUT',
      url: `/api/sensor/${device.deviceId}`,
      headers: owner.auth,
      payload: { inactivityTimeoutSeconds: 60 },
    });
    await sendTelemetry(t, device.accessToken, { temperature: 4 });
    const online = await t.app.inject({ url: `/api/sensor/${device.deviceId}`, headers: owner.auth });
    expect(online.json<{ sensor: { status: string } }>().sensor.status).toBe('online');

    // The device was last heard 61 s ago.
    await setLastSeen(t, 'sensor', device.deviceId, 61);
    const offline = await t.app.inject({ url: `/api/sensor/${device.deviceId}`, headers: owner.auth });
    expect(offline.json<{ sensor: { status: string } }>().sensor.status).toBe('offline');

    const stream = await openStream(baseUrl, owner.token);
    // Two instances running the job at once, then a later run: the silence is announced once.
    const [first, second] = await Promise.all([announceOfflineDevices(t.app.services), announceOfflineDevices(t.app.services)]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    await announceOfflineDevices(t.app.services);
    // A first connection also replays the last seconds (this device's creation among them).
    const isStatus = (e: { event: string; data: string }) =>
      e.event === 'device' && e.data.includes(device.deviceId) && JSON.parse(e.data).action === 'status';
    const event = await stream.waitFor(isStatus);
    expect(JSON.parse(event.data)).toMatchObject({ action: 'status', device: { id: device.deviceId, status: 'offline' } });
    // A change made after those runs arrives after anything they announced.
    await t.app.inject({ method: 'PUT', url: `/api/sensor/${device.deviceId}`, headers: owner.auth, payload: { name: 'Repère' } });
    await stream.waitFor((e) => e.event === 'device' && e.data.includes('Repère'));
    expect(stream.events.filter(isStatus)).toHaveLength(1);

    await stream.close();
  });

  it('keeps a sensor offline even while its transmitter is live', async () => {
    const gateway = await provision(t, owner, 'emitter');
    const sensor = await provision(t, owner, 'sensor');
    await sendTelemetry(t, gateway.accessToken, { sensor: sensor.serial, temperature: 4 });
    await setLastSeen(t, 'sensor', sensor.deviceId, 3600);
    await sendTelemetry(t, gateway.accessToken, { rssi: -60 });
    const emitter = await t.app.inject({ url: `/api/emitter/${gateway.deviceId}`, headers: owner.auth });
    const child = await t.app.inject({ url: `/api/sensor/${sensor.deviceId}`, headers: owner.auth });
    expect(emitter.json<{ emitter: { status: string } }>().emitter.status).toBe('online');
    expect(child.json<{ sensor: { status: string } }>().sensor.status).toBe('offline');
  });
});
