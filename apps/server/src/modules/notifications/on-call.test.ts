import { generateKeyPairSync, randomUUID, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Alert, MyPhoneResponse, OnCallResponse, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { setRole } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, databaseUrl, type TestAccount, type TestApp } from '../../test/test-app.ts';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The form's fields, or the JSON body. */
  body: Record<string, unknown>;
}

/**
 * A provider's API on this machine, as Twilio or Vonage serve theirs: it records each request and
 * answers what `answer` says (a status and a JSON body).
 */
async function startProvider(answer: (request: Received) => { status: number; json: unknown }) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = String(request.headers['content-type']).includes('json')
        ? (JSON.parse(text) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(text));
      const entry = { path: request.url ?? '', headers: request.headers, body };
      received.push(entry);
      const { status, json } = answer(entry);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const MINUTE = 60_000;

describe(`on-call ladder, SMS and calls (docs/api.md, Astreinte, SMS et appels) on ${databaseKind}`, { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock = new Date();
  let smsOutage = 0;
  let twilio: Awaited<ReturnType<typeof startProvider>>;
  let marie: TestAccount;
  let paul: TestAccount;
  let viewer: TestAccount;

  beforeAll(async () => {
    twilio = await startProvider((request) => {
      if (request.path.endsWith('/Messages.json') && smsOutage > 0) {
        smsOutage -= 1;
        return { status: 503, json: { code: 20503, message: 'Service Unavailable' } };
      }
      return { status: 201, json: { sid: `SM${randomUUID().replaceAll('-', '')}` } };
    });
    t = await createTestApp({ now: () => clock, env: env() });
    const organization = `Supérette ${randomUUID()}`;
    marie = await t.createAccount({ organization, name: 'Marie Dupont' });
    paul = await t.createAccount({ organization, name: 'Paul Martin' });
    viewer = await t.createAccount({ organization, name: 'Vendeur' });
    await setRole(t, paul.id, 'manager');
    await setRole(t, viewer.id, 'viewer');
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  function env() {
    return {
      PUBLIC_URL: 'https://vigie.example.fr',
      PHONE_PROVIDER: 'twilio',
      PHONE_FROM: '+33700000001',
      TWILIO_ACCOUNT_SID: 'AC0123456789',
      TWILIO_AUTH_TOKEN: 'jeton-twilio',
      TWILIO_API_URL: twilio.url,
    };
  }
  const call = (who: TestAccount, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const texts = () => twilio.received.filter((request) => request.path.endsWith('/Messages.json'));
  const calls = () => twilio.received.filter((request) => request.path.endsWith('/Calls.json'));

  /** Registers and confirms a number the way a person does: the code comes back in the SMS. */
  async function confirmPhone(who: TestAccount, typed: string): Promise<MyPhoneResponse> {
    const set = await call(who, 'PUT', '/api/user/phone', { phone: typed });
    expect(set.statusCode, set.body).toBe(200);
    const code = /(\d{6})/.exec(String(texts().at(-1)?.body['Body']))?.[1] ?? '';
    const verified = await call(who, 'POST', '/api/user/phone/verify', { code });
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json<MyPhoneResponse>();
  }

  it('checks a number by a code sent to it before using it, and refuses bad input in French', async () => {
    const mine = await call(marie, 'GET', '/api/user/phone');
    expect(mine.json()).toEqual({ phone: null, quietHours: null, channels: { sms: true, call: true } });

    for (const [phone, message] of [
      ['123456', /invalide/],
      ['pas un numéro', /invalide/],
      ['01 23 45 67 89', /portable/],
    ] as const) {
      const response = await call(marie, 'PUT', '/api/user/phone', { phone });
      expect(response.statusCode, phone).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    expect(texts()).toHaveLength(0);

    const set = await call(marie, 'PUT', '/api/user/phone', { phone: '06 12 34 56 78' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<MyPhoneResponse>().phone).toEqual({
      number: '+33612345678',
      display: '+33 6 12 34 56 78',
      verified: false,
      verifiedAt: null,
    });
    const sms = texts().at(-1);
    expect(sms?.body).toMatchObject({ To: '+33612345678', From: '+33700000001' });
    expect(sms?.headers.authorization).toBe(`Basic ${Buffer.from('AC0123456789:jeton-twilio').toString('base64')}`);
    const code = /(\d{6})/.exec(String(sms?.body['Body']))?.[1] ?? '';
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await call(marie, 'POST', '/api/user/phone/verify', { code: wrong });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/Code incorrect/);
    expect((await call(marie, 'POST', '/api/user/phone/verify', { code: '12' })).statusCode).toBe(400);
    expect((await call(marie, 'GET', '/api/user/phone')).json<MyPhoneResponse>().phone?.verified).toBe(false);
    const verified = await call(marie, 'POST', '/api/user/phone/verify', { code });
    expect(verified.statusCode).toBe(200);
    expect(verified.json<MyPhoneResponse>().phone?.verified).toBe(true);
    // A code works once.
    expect((await call(marie, 'POST', '/api/user/phone/verify', { code })).statusCode).toBe(400);

    // Five codes an hour at most.
    for (let i = 0; i < 5; i += 1) await call(viewer, 'PUT', '/api/user/phone', { phone: '+33 7 81 22 33 44' });
    const sixth = await call(viewer, 'PUT', '/api/user/phone', { phone: '+33 7 81 22 33 44' });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json<{ message: string }>().message).toMatch(/Trop de codes/);

    expect((await confirmPhone(paul, '+33698765432')).phone?.display).toBe('+33 6 98 76 54 32');
  });

  it('climbs push → SMS → call → next person for a critical alert, retries a provider outage, and stops when the call is answered with 1', async () => {
    const sensor = await provision(t, marie, 'sensor');
    await call(marie, 'PUT', `/api/sensor/${sensor.deviceId}`, { name: 'Congélateur 2' });
    const sites = (await call(marie, 'GET', '/api/sites')).json<{ sites: { id: string; name: string }[] }>().sites;
    const siteId = sites[0]?.id ?? '';

    // Bad rotas are refused and change nothing; a viewer may not set one.
    const rota = {
      slots: [
        {
          name: 'Toujours',
          days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'holiday'],
          from: '00:00',
          to: '00:00',
          people: [marie.id, paul.id],
        },
      ],
      ladder: { smsAfterMinutes: 5, callAfterMinutes: 10, nextAfterMinutes: 15 },
    };
    expect((await call(viewer, 'PUT', `/api/sites/${siteId}/on-call`, rota)).statusCode).toBe(403);
    for (const [payload, message] of [
      [{ ...rota, slots: [{ ...rota.slots[0], people: [randomUUID()] }] }, /n’est pas membre/],
      [{ ...rota, slots: [{ ...rota.slots[0], days: [] }] }, /au moins un jour/],
      [{ ...rota, ladder: { smsAfterMinutes: 10, callAfterMinutes: 5, nextAfterMinutes: 15 } }, /après le SMS/],
      [{ ...rota, slots: [{ ...rota.slots[0], from: '25:00' }] }, /HH:MM/],
    ] as const) {
      const response = await call(marie, 'PUT', `/api/sites/${siteId}/on-call`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    expect((await call(viewer, 'GET', `/api/sites/${siteId}/on-call`)).json<OnCallResponse>().onCall.slots).toEqual([]);
    const saved = await call(marie, 'PUT', `/api/sites/${siteId}/on-call`, rota);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<OnCallResponse>().now.people).toEqual([
      { id: marie.id, name: 'Marie Dupont', phone: '+33612345678' },
      { id: paul.id, name: 'Paul Martin', phone: '+33698765432' },
    ]);

    const rule = await call(marie, 'POST', '/api/alert-rules', {
      name: 'Surgelés',
      sensorId: sensor.deviceId,
      condition: { type: 'above', key: 'temperature', threshold: -15 },
      severity: 'critical',
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const before = { texts: texts().length, calls: calls().length };
    let opened = clock;
    const at = async (minutes: number) => {
      clock = new Date(opened.getTime() + minutes * MINUTE);
      await t.app.services.notifications.tick();
    };
    expect((await sendTelemetry(t, sensor.accessToken, { values: { temperature: -9.5 } })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    const opening = (await call(marie, 'GET', `/api/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts[0];
    const alertId = opening?.id ?? '';
    // The ladder counts from when the alert opened (the reading's arrival).
    opened = new Date(opening?.openedAt ?? clock);
    await at(0);
    await at(4);
    expect(texts()).toHaveLength(before.texts);

    // 5 min: Marie's SMS; the provider is down for the first try, and it is tried again.
    smsOutage = 1;
    await at(5);
    expect(texts()).toHaveLength(before.texts + 1);
    await at(6);
    expect(texts()).toHaveLength(before.texts + 2);
    const sms = texts().at(-1)?.body ?? {};
    expect(sms['To']).toBe('+33612345678');
    expect(String(sms['Body'])).toContain('Congélateur 2');
    expect(String(sms['Body'])).toContain('Magasin principal');
    expect(String(sms['Body'])).toContain('−9,5');
    expect(String(sms['Body'])).toContain(`https://vigie.example.fr/dashboard/alertes/${alertId}`);

    // 10 min: Marie is called; the message is read in French and waits for a key.
    await at(10);
    expect(calls()).toHaveLength(before.calls + 1);
    const marieCall = calls().at(-1)?.body ?? {};
    expect(marieCall['To']).toBe('+33612345678');
    expect(String(marieCall['Twiml'])).toContain('<Say language="fr-FR">');
    expect(String(marieCall['Twiml'])).toContain('Congélateur 2');
    expect(String(marieCall['Twiml'])).toContain('moins 9,5 degrés');
    expect(String(marieCall['Twiml'])).toContain('Appuyez sur 1');

    // She does not answer: 15 min, Paul's turn (push), 20 min his SMS, 25 min his call.
    await at(15);
    await at(20);
    expect(texts().at(-1)?.body['To']).toBe('+33698765432');
    await at(25);
    const paulCall = calls().at(-1)?.body ?? {};
    expect(paulCall['To']).toBe('+33698765432');
    const action = /action="([^"]+)"/.exec(String(paulCall['Twiml']))?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(action.startsWith('https://vigie.example.fr/api/voice/')).toBe(true);
    const answerPath = new URL(action).pathname;

    // A key other than 1 takes nothing into account; a forged link neither.
    const other = await t.app.inject({
      method: 'POST',
      url: answerPath,
      payload: 'Digits=2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-type']).toContain('xml');
    expect(other.body).toContain('l’alerte reste ouverte');
    const forged = await t.app.inject({
      method: 'POST',
      url: `${answerPath.slice(0, -4)}AAAA`,
      payload: 'Digits=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.body).toContain('expiré');
    expect((await call(marie, 'GET', `/api/alerts/${alertId}`)).json<{ alert: Alert }>().alert.status).toBe('open');

    // Paul presses 1: the alert is his, and the ladder stops.
    const pressed = await t.app.inject({
      method: 'POST',
      url: answerPath,
      payload: 'Digits=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(pressed.statusCode).toBe(200);
    expect(pressed.body).toBe('<Response><Say language="fr-FR">Alerte prise en compte. Merci.</Say></Response>');
    const alert = (await call(marie, 'GET', `/api/alerts/${alertId}`)).json<{ alert: Alert }>().alert;
    expect(alert.status).toBe('acknowledged');
    expect(alert.acknowledgedBy).toBe(paul.id);
    const counts = { texts: texts().length, calls: calls().length };
    await at(60);
    await at(120);
    expect({ texts: texts().length, calls: calls().length }).toEqual(counts);
    expect(counts).toEqual({ texts: before.texts + 3, calls: before.calls + 2 });

    // Every rung and its outcome is in the timeline, in order.
    const lines = alert.events.filter((event) => event.type === 'called').map((event) => event.text);
    expect(lines).toEqual([
      'Astreinte : Marie Dupont ne reçoit les notifications sur aucun appareil.',
      'Astreinte : SMS à Marie Dupont (+33 6 12 34 56 78).',
      'SMS à Marie Dupont : échec (Twilio a répondu 503 : Service Unavailable). Nouvel essai dans 30\u00a0s.',
      'SMS à Marie Dupont : remis à Twilio.',
      'Astreinte : appel à Marie Dupont (+33 6 12 34 56 78).',
      'Appel à Marie Dupont : remis à Twilio.',
      'Astreinte : Paul Martin ne reçoit les notifications sur aucun appareil.',
      'Astreinte : SMS à Paul Martin, personne suivante (+33 6 98 76 54 32).',
      'SMS à Paul Martin : remis à Twilio.',
      'Astreinte : appel à Paul Martin, personne suivante (+33 6 98 76 54 32).',
      'Appel à Paul Martin : remis à Twilio.',
    ]);
    expect(alert.events.find((event) => event.type === 'acknowledged')?.text).toBe('Prise en compte par téléphone (touche 1).');
    const audit = (await call(marie, 'GET', '/api/audit?action=alert.acknowledged')).json<{ events: { actor: { id: string } | null }[] }>();
    expect(audit.events[0]?.actor?.id).toBe(paul.id);
  });

  it('sends one SMS and one call per rung when two instances tick together, and stops at an acknowledgement from the page', async () => {
    // On PostgreSQL a second server shares the database; the embedded database has one instance, ticking twice at once.
    const second = databaseUrl ? await createTestApp({ now: () => clock, env: env() }) : null;
    try {
      const sensor = await provision(t, marie, 'sensor');
      await call(marie, 'POST', '/api/alert-rules', {
        name: 'Chambre froide',
        sensorId: sensor.deviceId,
        condition: { type: 'above', key: 'temperature', threshold: 4 },
        severity: 'critical',
      });
      // Marie alone is on call, wherever the sensor was installed.
      const sites = (await call(marie, 'GET', '/api/sites')).json<{ sites: { id: string }[] }>().sites;
      for (const site of sites) {
        const rota = await call(marie, 'PUT', `/api/sites/${site.id}/on-call`, {
          slots: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '00:00', to: '00:00', people: [marie.id] }],
          ladder: { smsAfterMinutes: 5, callAfterMinutes: 10, nextAfterMinutes: 15 },
        });
        expect(rota.statusCode).toBe(200);
      }
      const counts = { texts: texts().length, calls: calls().length };
      // The clock comes back to the present: the reading arrives now.
      clock = new Date();
      await sendTelemetry(t, sensor.accessToken, { values: { temperature: 8.4 } });
      await t.app.services.alerts.engine.idle();
      const alert = (await call(marie, 'GET', `/api/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts[0];
      const opened = new Date(alert?.openedAt ?? clock);
      const both = async (minutes: number) => {
        clock = new Date(opened.getTime() + minutes * MINUTE);
        await Promise.all([t.app.services.notifications.tick(), (second ?? t).app.services.notifications.tick()]);
        await Promise.all([t.app.services.notifications.tick(), (second ?? t).app.services.notifications.tick()]);
      };
      for (const minutes of [0, 5, 10]) await both(minutes);
      expect({ texts: texts().length, calls: calls().length }).toEqual({ texts: counts.texts + 1, calls: counts.calls + 1 });
      expect((await call(marie, 'POST', `/api/alerts/${alert?.id}/acknowledge`, {})).statusCode).toBe(200);
      for (const minutes of [15, 20, 25, 60]) await both(minutes);
      expect({ texts: texts().length, calls: calls().length }).toEqual({ texts: counts.texts + 1, calls: counts.calls + 1 });
    } finally {
      await second?.close();
    }
  });

  it('leaves a warning alone: no ladder, and nothing pushed to someone in their quiet hours', async () => {
    const quiet = await call(marie, 'PUT', '/api/user/quiet-hours', { quietHours: { from: '22:00', to: '22:00' } });
    expect(quiet.statusCode).toBe(400);
    const set = await call(marie, 'PUT', '/api/user/quiet-hours', { quietHours: { from: '22:00', to: '07:00' } });
    expect(set.json<MyPhoneResponse>().quietHours).toEqual({ from: '22:00', to: '07:00' });
    const sensor = await provision(t, marie, 'sensor');
    await call(marie, 'POST', '/api/alert-rules', {
      name: 'Humidité',
      sensorId: sensor.deviceId,
      condition: { type: 'above', key: 'humidity', threshold: 80 },
      severity: 'warning',
    });
    const counts = { texts: texts().length, calls: calls().length };
    await sendTelemetry(t, sensor.accessToken, { values: { humidity: 91 } });
    await t.app.services.alerts.engine.idle();
    const start = clock;
    for (const minutes of [0, 10, 30, 60]) {
      clock = new Date(start.getTime() + minutes * MINUTE);
      await t.app.services.notifications.tick();
    }
    expect({ texts: texts().length, calls: calls().length }).toEqual(counts);
  });

  it('leaves out of the ladder someone on call whose scope no longer holds the site: no SMS, no call about it', async () => {
    const nice = (await call(marie, 'POST', '/api/sites', { name: 'Magasin Nice' })).json<{ site: Site }>().site;
    const sensor = await provision(t, marie, 'sensor');
    await call(marie, 'PUT', `/api/sensor/${sensor.deviceId}`, { name: 'Chambre Nice', siteId: nice.id });
    const rota = await call(marie, 'PUT', `/api/sites/${nice.id}/on-call`, {
      slots: [
        { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'holiday'], from: '00:00', to: '00:00', people: [paul.id, marie.id] },
      ],
      ladder: { smsAfterMinutes: 5, callAfterMinutes: 10, nextAfterMinutes: 15 },
    });
    expect(rota.statusCode, rota.body).toBe(200);
    // Paul, first on call, now sees another shop only.
    const main = (await call(marie, 'GET', '/api/sites')).json<{ sites: Site[] }>().sites.find((site) => site.id !== nice.id);
    const scoped = await call(marie, 'PUT', `/api/members/${paul.id}`, { scope: { siteIds: [main?.id] } });
    expect(scoped.statusCode, scoped.body).toBe(200);
    try {
      expect((await call(marie, 'GET', `/api/sites/${nice.id}/on-call`)).json<OnCallResponse>().now.people.map((p) => p.id)).toEqual([
        marie.id,
      ]);
      await call(marie, 'POST', '/api/alert-rules', {
        name: 'Chambre Nice',
        sensorId: sensor.deviceId,
        condition: { type: 'above', key: 'temperature', threshold: 4 },
        severity: 'critical',
      });
      clock = new Date();
      await sendTelemetry(t, sensor.accessToken, { values: { temperature: 9.1 } });
      await t.app.services.alerts.engine.idle();
      const alert = (await call(marie, 'GET', `/api/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts[0];
      const opened = new Date(alert?.openedAt ?? clock);
      for (const minutes of [0, 5, 10, 15, 20, 25, 30]) {
        clock = new Date(opened.getTime() + minutes * MINUTE);
        await t.app.services.notifications.tick();
      }
      const aboutNice = [...texts().map((request) => request.body), ...calls().map((request) => request.body)].filter((body) =>
        `${String(body['Body'])} ${String(body['Twiml'])}`.includes('Chambre Nice'),
      );
      // Marie, first in line now, is texted then called; Paul never hears of it.
      expect(aboutNice.map((body) => body['To'])).toEqual(['+33612345678', '+33612345678']);
    } finally {
      await call(marie, 'PUT', `/api/members/${paul.id}`, { scope: null });
    }
  });
});

describe(`Vonage SMS and calls on ${databaseKind}`, { timeout: 60_000 }, () => {
  it('texts through the SMS API and calls through the Voice API with a signed JWT; « 1 » in the NCCO answer takes the alert', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const vonage = await startProvider((request) =>
      request.path === '/sms/json'
        ? { status: 200, json: { 'message-count': '1', messages: [{ status: '0', 'message-id': randomUUID() }] } }
        : { status: 201, json: { uuid: randomUUID(), status: 'started' } },
    );
    let clock = new Date();
    const t = await createTestApp({
      now: () => clock,
      env: {
        PUBLIC_URL: 'https://vigie.example.fr',
        PHONE_PROVIDER: 'vonage',
        PHONE_FROM: '+33700000002',
        VONAGE_API_KEY: 'cle',
        VONAGE_API_SECRET: 'secret',
        VONAGE_APPLICATION_ID: 'app-123',
        VONAGE_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().replaceAll('\n', '\\n'),
        VONAGE_SMS_URL: vonage.url,
        VONAGE_VOICE_URL: vonage.url,
      },
    });
    try {
      const owner = await t.createAccount({ name: 'Nadia Benali' });
      expect(
        (await t.app.inject({ method: 'PUT', url: '/api/user/phone', headers: owner.auth, payload: { phone: '0611223344' } })).statusCode,
      ).toBe(200);
      const sms = vonage.received.at(-1)?.body ?? {};
      expect(sms).toMatchObject({ api_key: 'cle', api_secret: 'secret', to: '33611223344', from: '+33700000002', type: 'unicode' });
      const code = /(\d{6})/.exec(String(sms['text']))?.[1] ?? '';
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/user/phone/verify', headers: owner.auth, payload: { code } })).statusCode,
      ).toBe(200);

      const sensor = await provision(t, owner, 'sensor');
      const siteId = (await t.app.inject({ url: '/api/sites', headers: owner.auth })).json<{ sites: { id: string }[] }>().sites[0]?.id;
      const rota = await t.app.inject({
        method: 'PUT',
        url: `/api/sites/${siteId}/on-call`,
        headers: owner.auth,
        payload: {
          slots: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '00:00', to: '00:00', people: [owner.id] }],
          ladder: { smsAfterMinutes: 0, callAfterMinutes: 2, nextAfterMinutes: 10 },
        },
      });
      expect(rota.statusCode, rota.body).toBe(200);
      await t.app.inject({
        method: 'POST',
        url: '/api/alert-rules',
        headers: owner.auth,
        payload: { name: 'Froid', sensorId: sensor.deviceId, condition: { type: 'above', key: 'temperature', threshold: 4 } },
      });
      await sendTelemetry(t, sensor.accessToken, { values: { temperature: 9 } });
      await t.app.services.alerts.engine.idle();
      const opened = (await t.app.inject({ url: `/api/alerts?sensorId=${sensor.deviceId}`, headers: owner.auth })).json<{
        alerts: Alert[];
      }>().alerts[0]?.openedAt;
      clock = new Date(opened ?? clock);
      await t.app.services.notifications.tick();
      expect(vonage.received.filter((request) => request.path === '/sms/json')).toHaveLength(2);
      clock = new Date(clock.getTime() + 2 * MINUTE);
      await t.app.services.notifications.tick();
      const placed = vonage.received.find((request) => request.path === '/v1/calls');
      expect(placed).toBeDefined();
      const [header = '', claims = '', signature = ''] = String(placed?.headers.authorization)
        .replace(/^Bearer /, '')
        .split('.');
      expect(verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
      expect(JSON.parse(Buffer.from(claims, 'base64url').toString())).toMatchObject({ application_id: 'app-123' });
      const ncco = placed?.body['ncco'] as { action: string; text?: string; language?: string; eventUrl?: string[] }[];
      expect(placed?.body['to']).toEqual([{ type: 'phone', number: '33611223344' }]);
      expect(ncco[0]).toMatchObject({ action: 'talk', language: 'fr-FR' });
      expect(ncco[0]?.text).toContain('Appuyez sur 1');
      const eventUrl = ncco[1]?.eventUrl?.[0] ?? '';
      const answered = await t.app.inject({
        method: 'POST',
        url: new URL(eventUrl).pathname,
        payload: { dtmf: { digits: '1', timed_out: false } },
      });
      expect(answered.statusCode).toBe(200);
      expect(answered.json()).toEqual([{ action: 'talk', text: 'Alerte prise en compte. Merci.', language: 'fr-FR' }]);
      const alerts = (await t.app.inject({ url: `/api/alerts?sensorId=${sensor.deviceId}`, headers: owner.auth })).json<{
        alerts: Alert[];
      }>();
      expect(alerts.alerts[0]).toMatchObject({ status: 'acknowledged', acknowledgedBy: owner.id });
    } finally {
      await t.close();
      await vonage.close();
    }
  });
});
