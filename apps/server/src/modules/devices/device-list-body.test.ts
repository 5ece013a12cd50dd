import type { SensorListResponse } from '@vigie/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

/**
 * The whole list is answered from what was written for it while nothing changed: a reading, a
 * rename and the passing of a device's inactivity delay each give a new answer and a new ETag.
 */
describe(`device list answered from memory (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let sensor: { deviceId: string; accessToken: string };

  const list = async () => {
    const response = await t.app.inject({ url: '/api/sensor', headers: owner.auth });
    expect(response.statusCode).toBe(200);
    return { etag: String(response.headers['etag']), sensors: response.json<SensorListResponse>().sensors, body: response.body };
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
    sensor = await provision(t, owner, 'sensor');
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  it('answers the same bytes while nothing changes, and the newest reading once one is stored', async () => {
    const first = await list();
    expect((await list()).body).toBe(first.body);
    expect(first.sensors[0]?.status).toBe('never');

    expect((await sendTelemetry(t, sensor.accessToken, { temperature: 5.5 })).statusCode).toBeLessThan(300);
    const heard = await list();
    expect(heard.etag).not.toBe(first.etag);
    expect(heard.sensors[0]).toMatchObject({ status: 'online', latest: { temperature: { value: 5.5 } } });

    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/sensor/${sensor.deviceId}`,
      headers: owner.auth,
      payload: { name: 'Vitrine' },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await list()).sensors[0]?.name).toBe('Vitrine');
  });

  it('shows a device offline once its inactivity delay has passed, without any change to it', async () => {
    const online = await list();
    expect(online.sensors[0]?.status).toBe('online');
    const timeout = online.sensors[0]?.inactivityTimeoutSeconds ?? 0;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(online.sensors[0]?.lastSeenAt ?? '') + timeout * 1000 + 1000);
    const offline = await list();
    expect(offline.sensors[0]?.status).toBe('offline');
    expect(offline.etag).not.toBe(online.etag);
  });
});
