import type { OverviewResponse, SensorListResponse } from '@vigie/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

/** The overview counts each shop's sensors from their stored state: offline, low battery. */
describe(`GET /api/overview counts sensors (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;

  const overview = async () => {
    const response = await t.app.inject({ url: '/api/overview', headers: owner.auth });
    expect(response.statusCode).toBe(200);
    return response.json<OverviewResponse>().sites;
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  it('counts a low battery, then the sensor offline once its inactivity delay has passed', async () => {
    const weak = await provision(t, owner, 'sensor');
    await provision(t, owner, 'sensor');
    expect((await sendTelemetry(t, weak.accessToken, { temperature: 4.4, battery: 12 })).statusCode).toBeLessThan(300);
    const [shop] = await overview();
    expect(shop).toMatchObject({ sensors: 2, offline: 0, lowBattery: 1 });

    const sensors = (await t.app.inject({ url: '/api/sensor', headers: owner.auth })).json<SensorListResponse>().sensors;
    const heard = sensors.find((sensor) => sensor.id === weak.deviceId);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(heard?.lastSeenAt ?? '') + (heard?.inactivityTimeoutSeconds ?? 0) * 1000 + 1000);
    // The other sensor, never heard from, is not counted offline.
    expect((await overview())[0]).toMatchObject({ sensors: 2, offline: 1, lowBattery: 1 });
  });
});
