import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectDevice, countRows, installationKey, provision, sendTelemetry } from '../test/device-helpers.ts';
import { createTestApp, databaseKind, TEST_JWT_SECRET, type TestAccount, type TestApp } from '../test/test-app.ts';
import { MAX_STREAMS_PER_USER } from '../modules/events/stream-routes.ts';

/** What an attack test found on the previous release, each kept fixed by a test that failed then. */
describe(`hardening (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let baseUrl: string;
  let mqttUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_IP: '20', LOGIN_MAX_FAILURES_PER_EMAIL: '5' } });
    ({ baseUrl, mqttUrl } = await t.listen());
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  describe('the login limiter counts attempts before checking the password', () => {
    it('lets no more than the per-e-mail limit through when wrong passwords arrive in parallel', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 15 }, () =>
          t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: owner.email, password: 'mauvais mot de passe' } }),
        ),
      );
      const statuses = attempts.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(10);
    });

    it('lets no more than the per-address limit through across many e-mails', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress: '203.0.113.7',
            payload: { email: `inconnu-${i}@example.fr`, password: 'mauvais mot de passe' },
          }),
        ),
      );
      expect(attempts.filter((response) => response.statusCode === 401).length).toBeLessThanOrEqual(20);
      const refused = attempts.find((response) => response.statusCode === 429);
      expect(refused?.headers['retry-after']).toBeDefined();
    });
  });

  it('does not let a stranger lock the owner out, while a guess spread over many addresses slows to a crawl', async () => {
    const target = await t.createAccount(); // signs in once from 127.0.0.1, its usual address
    const guess = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: `198.51.100.${i}`,
        payload: { email: target.email, password: `essai ${i}` },
      });
    const statuses: number[] = [];
    const waits: number[] = [];
    for (let i = 1; i <= 12; i += 1) {
      const response = await guess(i);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) waits.push(Number(response.headers['retry-after']));
    }
    // Five guesses from strangers, then one every 2, 4, 8… seconds at most: here, within a second, none.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(6);
    expect(waits.length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(2);
    // The owner, from the address they use, still gets in.
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: target.email, password: target.password },
    });
    expect(owner.statusCode).toBe(200);
  });

  describe('a NUL character or half a character is a 400 in French, and changes nothing', () => {
    const cases: [string, string][] = [
      ['NUL', 'Capteur\u0000caché'],
      ['lone surrogate', 'Capteur \ud83d seul'],
    ];
    for (const [what, name] of cases) {
      it(`refuses ${what} in a device name, a serial, a model and a reading id`, async () => {
        const before = await t.app.inject({ url: '/api/sensor', headers: owner.auth });
        const created = await t.app.inject({ method: 'POST', url: '/api/sensor', headers: owner.auth, payload: { name } });
        expect(created.statusCode).toBe(400);
        expect(created.json<{ message: string }>().message).toMatch(/caractère (nul|mal encodé)/);
        const key = await installationKey(t, owner);
        for (const payload of [
          { installationKey: key, serial: name, kind: 'sensor' },
          { installationKey: key, serial: 'SN-OK', kind: 'sensor', model: name },
          { installationKey: `${key}\u0000`, serial: 'SN-OK', kind: 'sensor' },
        ]) {
          const provisioned = await t.app.inject({ method: 'POST', url: '/api/devices/provision', payload });
          expect(provisioned.statusCode, JSON.stringify(payload)).toBe(400);
        }
        const device = await provision(t, owner, 'sensor');
        const rows = await countRows(t, device.deviceId);
        const sent = await sendTelemetry(t, device.accessToken, { id: name, values: { temperature: 4 } });
        expect(sent.statusCode).toBe(400);
        expect(await countRows(t, device.deviceId)).toBe(rows);
        const after = await t.app.inject({ url: '/api/sensor', headers: owner.auth });
        expect(after.json<{ sensors: unknown[] }>().sensors.length).toBe(before.json<{ sensors: unknown[] }>().sensors.length + 1);
      });
    }

    it('refuses it over MQTT on the errors topic and acknowledges, so the device stops resending', async () => {
      const device = await provision(t, owner, 'sensor');
      const client = await connectDevice(mqttUrl, device);
      const errors: string[] = [];
      client.on('message', (_topic, payload) => errors.push(payload.toString('utf8')));
      await client.subscribeAsync(`vigie/devices/${device.deviceId}/errors`, { qos: 0 });
      await client.publishAsync(
        `vigie/devices/${device.deviceId}/telemetry`,
        JSON.stringify({ id: 'lecture\u0000piégée', values: { temperature: 4 } }),
        { qos: 1 },
      );
      for (let i = 0; i < 50 && errors.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(errors[0]).toContain('caractère nul');
      expect(client.connected).toBe(true);
      await client.endAsync();
    });
  });

  it('answers 401, not 500, for a validly signed token whose subject is not a user id', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('pas-un-uuid')
      .setIssuer('vigie')
      .setAudience('vigie-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const response = await t.app.inject({ url: '/api/user/me', headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(401);
  });

  it('marks the login answer not to be stored, and refuses a charset other than UTF-8', async () => {
    // Another account: the owner's e-mail is still throttled by the parallel guesses above.
    const other = await t.createAccount();
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: other.email, password: other.password } });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const utf16 = await t.app.inject({
      method: 'POST',
      url: '/api/sensor',
      headers: { ...owner.auth, 'content-type': 'application/json; charset=utf-16' },
      payload: JSON.stringify({ name: 'Frigo' }),
    });
    expect(utf16.statusCode).toBe(415);
    expect(utf16.json<{ message: string }>().message).toContain('UTF-8');
  });

  it('counts a name in characters as a person sees them: 100 flags fit, 101 do not', async () => {
    const flags = (n: number) => '🇫🇷'.repeat(n);
    const fits = await t.app.inject({ method: 'POST', url: '/api/sensor', headers: owner.auth, payload: { name: flags(100) } });
    expect(fits.statusCode).toBe(201);
    const tooLong = await t.app.inject({ method: 'POST', url: '/api/sensor', headers: owner.auth, payload: { name: flags(101) } });
    expect(tooLong.statusCode).toBe(400);
  });

  it(`caps the live streams of one user at ${MAX_STREAMS_PER_USER}, with a clear message`, async () => {
    const controllers = Array.from({ length: MAX_STREAMS_PER_USER }, () => new AbortController());
    const open = await Promise.all(
      controllers.map((controller) => fetch(`${baseUrl}/api/stream`, { headers: owner.auth, signal: controller.signal })),
    );
    expect(open.every((response) => response.status === 200)).toBe(true);
    const refused = await fetch(`${baseUrl}/api/stream`, { headers: owner.auth });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toContain('Trop de connexions en direct');
    for (const controller of controllers) controller.abort();
    // The server counts a stream closed once it has seen its connection end: tried until then.
    const again = new AbortController();
    await vi.waitFor(
      async () => {
        const reopened = await fetch(`${baseUrl}/api/stream`, { headers: owner.auth, signal: again.signal });
        if (reopened.status !== 200) await reopened.body?.cancel();
        expect(reopened.status).toBe(200);
      },
      { timeout: 5_000, interval: 20 },
    );
    again.abort();
  });
});
