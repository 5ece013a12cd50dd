import { randomUUID } from 'node:crypto';
import type { Alert, Emitter, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devEui as randomEui, ttsUplink } from '../../test/lorawan-uplinks.ts';
import { setLastSeen, setRole } from '../../test/test-dal.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';
import { alertEmail } from '../notifications/alert-message.ts';
import { GATEWAY_TIMEOUT_SECONDS } from './lorawan-service.ts';

/**
 * A LoRaWAN gateway is a transmitter of its shop (docs/api.md, LoRaWAN): once silent past its
 * timeout, the shop's « hors ligne » rule opens an alert about it, which closes when it is heard
 * again, or when it goes to the trash.
 */
describe(`a silent LoRaWAN gateway opens an offline alert (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let lille: TestAccount;
  const shops = {} as Record<'brest' | 'lille', Site>;

  const call = (account: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: account.auth, ...(payload === undefined ? {} : { payload }) });
  const tick = () => t.app.services.alerts.engine.tick();
  const alertsOf = async (account: TestAccount, deviceId: string) =>
    (await call(account, 'GET', `/api/alerts?sensorId=${deviceId}`)).json<{ alerts: Alert[] }>().alerts;

  beforeAll(async () => {
    t = await createTestApp();
    const organization = `Chaîne ${randomUUID()}`;
    owner = await t.createAccount({ organization, name: 'Directrice qualité' });
    lille = await t.createAccount({ organization, name: 'Responsable Lille' });
    await setRole(t, lille.id, 'manager');
    for (const city of ['brest', 'lille'] as const) {
      shops[city] = (await call(owner, 'POST', '/api/sites', { name: `Magasin de ${city === 'brest' ? 'Brest' : 'Lille'}` })).json<{
        site: Site;
      }>().site;
    }
    expect((await call(owner, 'PUT', `/api/members/${lille.id}`, { scope: { siteIds: [shops.lille.id] } })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  /** A sensor of the Brest shop reporting through gateway `gateway`, and the transmitter its first frame made of it. */
  async function gatewayInBrest() {
    const integration = (await call(owner, 'POST', '/api/integrations', { type: 'tts', name: 'Réseau du magasin' })).json<{
      integration: { id: string; secret: string };
    }>().integration;
    const devEui = randomEui();
    const gateway = randomEui();
    const registered = await call(owner, 'POST', '/api/lorawan/devices', {
      devEui,
      codec: 'milesight-em300-th',
      siteId: shops.brest.id,
    });
    expect(registered.statusCode, registered.body).toBe(201);
    let fCnt = 0;
    const uplink = async () => {
      fCnt += 1;
      const answer = await t.app.inject({
        method: 'POST',
        url: `/api/integrations/${integration.id}/events`,
        headers: { authorization: `Bearer ${integration.secret}` },
        payload: ttsUplink(devEui, { fCnt, heardBy: [{ id: 'passerelle-brest', eui: gateway.toUpperCase(), rssi: -90, snr: 5 }] }),
      });
      expect(answer.json()).toEqual({ status: 'stored', readings: 1 });
    };
    await uplink();
    const emitters = (await call(owner, 'GET', '/api/emitter')).json<{ emitters: Emitter[] }>().emitters;
    const emitter = emitters.find((entry) => entry.serial === gateway);
    if (!emitter) throw new Error('La passerelle n’est pas devenue un émetteur.');
    expect(emitter).toMatchObject({ siteId: shops.brest.id, inactivityTimeoutSeconds: GATEWAY_TIMEOUT_SECONDS });
    return { emitter, uplink };
  }

  it('opens an alert about the gateway silent past 30 min, tells it by name and shop, and resolves it when the gateway is heard again', async () => {
    const rule = await call(owner, 'POST', '/api/alert-rules', {
      name: 'Liaison Brest',
      siteId: shops.brest.id,
      condition: { type: 'offline' },
      severity: 'warning',
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const { emitter, uplink } = await gatewayInBrest();

    // Heard a moment ago: nothing to say.
    await tick();
    expect(await alertsOf(owner, emitter.id)).toEqual([]);

    // Nothing heard through it for 31 min: the clock opens the alert, about the transmitter, in its shop.
    await setLastSeen(t, 'emitter', emitter.id, GATEWAY_TIMEOUT_SECONDS + 60);
    await tick();
    const [opened, ...others] = await alertsOf(owner, emitter.id);
    expect(others).toEqual([]);
    expect(opened).toMatchObject({
      sensorId: emitter.id,
      deviceKind: 'emitter',
      siteId: shops.brest.id,
      status: 'open',
      severity: 'warning',
      key: null,
    });
    const id = opened?.id ?? '';
    expect((await call(owner, 'GET', `/api/alerts/${id}`)).json<{ alert: Alert }>().alert.deviceKind).toBe('emitter');
    // The sensor behind it, heard at the same time, is not offline: one alert only.
    expect((await call(owner, 'GET', '/api/alerts?status=active')).json<{ alerts: Alert[] }>().alerts.map((a) => a.sensorId)).toEqual([
      emitter.id,
    ]);

    // The message names the gateway and its shop.
    const [record] = (await t.app.services.alerts.alerts.during(owner.organizationId, new Date(0), new Date(Date.now() + 60_000))).filter(
      (entry) => entry.id === id,
    );
    if (!record) throw new Error('Alerte introuvable.');
    const context = await t.app.services.modules.alerts.describe(record);
    expect(context).toMatchObject({ sensorName: emitter.name, siteName: 'Magasin de Brest' });
    expect(emitter.name).toMatch(/^Passerelle /);
    const email = alertEmail(record, context, 'opened', { now: new Date(), publicUrl: 'https://vigie.example' });
    expect(email.subject).toBe(
      `[Vigie] Avertissement – ${emitter.name}\u202f: hors ligne (limite un signal avant la fin du délai d’inactivité)`,
    );
    expect(email.text).toContain(`sur «\u202f${emitter.name}\u202f» (Magasin de Brest).`);

    // A manager of another shop sees nothing of it.
    expect((await call(lille, 'GET', '/api/alerts')).json<{ alerts: Alert[] }>().alerts.map((a) => a.id)).not.toContain(id);
    expect((await call(lille, 'GET', `/api/alerts/${id}`)).statusCode).toBe(404);

    // Still silent: still open, once.
    await tick();
    expect((await alertsOf(owner, emitter.id)).map((a) => [a.id, a.status])).toEqual([[id, 'open']]);

    // A frame through the gateway: the next tick hears it and resolves the alert.
    await uplink();
    await tick();
    const [resolved] = await alertsOf(owner, emitter.id);
    expect(resolved).toMatchObject({ id, status: 'resolved', resolution: 'auto', deviceKind: 'emitter' });
    expect(resolved?.events.map((event) => event.type)).toEqual(['opened', 'resolved']);
  });

  it('closes the alert of a silent gateway put in the trash', async () => {
    const { emitter } = await gatewayInBrest();
    await setLastSeen(t, 'emitter', emitter.id, GATEWAY_TIMEOUT_SECONDS + 60);
    await tick();
    const [opened] = await alertsOf(owner, emitter.id);
    expect(opened).toMatchObject({ status: 'open', deviceKind: 'emitter' });

    expect((await call(owner, 'DELETE', `/api/emitter/${emitter.id}`)).statusCode).toBe(204);
    await vi.waitFor(
      async () => {
        await t.app.services.alerts.engine.idle();
        const alert = (await call(owner, 'GET', `/api/alerts/${opened?.id}`)).json<{ alert: Alert }>().alert;
        expect(alert).toMatchObject({ status: 'resolved', resolution: 'auto', deviceKind: 'emitter' });
        expect(alert.events.at(-1)?.text).toBe('L’émetteur a été mis à la corbeille\u00a0: l’alerte est close.');
      },
      { timeout: 5000, interval: 20 },
    );
    // Out of the trash and still silent: a new alert.
    expect((await call(owner, 'POST', `/api/emitter/${emitter.id}/restore`)).statusCode).toBe(200);
    await tick();
    const active = (await alertsOf(owner, emitter.id)).filter((alert) => alert.status !== 'resolved');
    expect(active).toHaveLength(1);
    expect(active[0]?.id).not.toBe(opened?.id);
  });
});
