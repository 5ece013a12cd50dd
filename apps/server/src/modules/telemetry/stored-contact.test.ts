import type { SensorListResponse } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';
import { setLastSeen, storedContact, storedLatest } from '../../test/test-dal.ts';

/**
 * What the database keeps of a batch of readings, as a restarted server reads it back: each
 * key's latest value (the later of two readings at the same time), and the device's last contact,
 * kept to the second.
 */
describe(`latest values and last contact as stored (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  it('keeps the later of two readings of a key at the same time, as the list shows, and never moves back', async () => {
    const sensor = await provision(t, owner, 'sensor');
    const ts = Date.now() - 60_000;
    const sent = await sendTelemetry(t, sensor.accessToken, [
      { ts, temperature: 3.5, humidity: 40 },
      { ts, temperature: 4.5 },
      { ts: ts - 1000, temperature: 9, humidity: 41 },
    ]);
    expect(sent.statusCode).toBe(202);
    expect(await storedLatest(t, sensor.deviceId)).toEqual({
      temperature: { value: 4.5, ts: new Date(ts) },
      humidity: { value: 40, ts: new Date(ts) },
    });
    const listed = (await t.app.inject({ url: '/api/sensor', headers: owner.auth })).json<SensorListResponse>();
    const shown = listed.sensors.find((s) => s.id === sensor.deviceId);
    expect(shown?.latest).toMatchObject({ temperature: { value: 4.5 }, humidity: { value: 40 } });

    expect((await sendTelemetry(t, sensor.accessToken, { ts: ts - 5000, temperature: 1 })).statusCode).toBe(202);
    expect((await storedLatest(t, sensor.deviceId))['temperature']).toEqual({ value: 4.5, ts: new Date(ts) });
  });

  it('rewrites the last contact once it is a second old, or when the battery changes', async () => {
    const sensor = await provision(t, owner, 'sensor');
    // Heard "a moment ago" by the database's clock: a message now does not rewrite the row.
    await setLastSeen(t, 'sensor', sensor.deviceId, -30);
    const recent = await storedContact(t, 'sensor', sensor.deviceId);
    expect((await sendTelemetry(t, sensor.accessToken, { temperature: 4 })).statusCode).toBe(202);
    expect(await storedContact(t, 'sensor', sensor.deviceId)).toEqual(recent);

    // A new battery level is written at once, with the contact.
    expect((await sendTelemetry(t, sensor.accessToken, { temperature: 4, battery: 80 })).statusCode).toBe(202);
    const withBattery = await storedContact(t, 'sensor', sensor.deviceId);
    expect(withBattery.battery).toBe(80);
    expect(withBattery.lastSeenAt?.getTime()).toBeLessThan(recent.lastSeenAt?.getTime() ?? 0);

    // Last heard five seconds ago: the contact moves to now.
    await setLastSeen(t, 'sensor', sensor.deviceId, 5);
    const before = Date.now();
    expect((await sendTelemetry(t, sensor.accessToken, { temperature: 4 })).statusCode).toBe(202);
    const heard = await storedContact(t, 'sensor', sensor.deviceId);
    expect(heard.lastSeenAt?.getTime()).toBeGreaterThan(before - 2000);
    expect(heard.battery).toBe(80);
  });
});
