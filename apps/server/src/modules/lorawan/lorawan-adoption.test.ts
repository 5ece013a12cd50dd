import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devEui, ttsUplink } from '../../test/lorawan-uplinks.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';

describe(`adopting a LoRaWAN device heard before (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  it('stores the frame heard while it waited as its first reading, and calls it offline only after about three missed uplinks', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/integrations',
      headers: owner.auth,
      payload: { type: 'tts', name: 'Réseau' },
    });
    const tts = created.json<{ integration: { id: string; secret: string } }>().integration;
    const eui = devEui();
    const heard = await t.app.inject({
      method: 'POST',
      url: `/api/integrations/${tts.id}/events`,
      headers: { authorization: `Bearer ${tts.secret}` },
      payload: ttsUplink(eui, { fCnt: 41 }) as object,
    });
    expect(heard.json()).toMatchObject({ status: 'unknown_device' });

    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/devices',
      headers: owner.auth,
      payload: { devEui: eui, codec: 'milesight-em300-th', name: 'Chambre froide' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const { sensor } = registered.json<{
      sensor: { id: string; latest: Record<string, { value: number }>; inactivityTimeoutSeconds: number; lastSeenAt: string | null };
    }>();
    // No interval to wait: the frame it sent before adoption is already its reading.
    expect(sensor.latest['temperature']?.value).toBe(30.8);
    expect(sensor.lastSeenAt).not.toBeNull();
    // Every 10 minutes by default: offline after 30 min of silence, not at the first uplink a little late.
    expect(sensor.inactivityTimeoutSeconds).toBe(1800);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const readings = await t.app.inject({
      url: `/api/sensor/${sensor.id}/readings?key=temperature&from=${from}&to=${new Date(Date.now() + 60_000).toISOString()}&buckets=10`,
      headers: owner.auth,
    });
    expect(readings.json<{ readings: { count: number }[] }>().readings.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(1);
  });
});
