import { createECDH, createPublicKey, hkdfSync, createDecipheriv, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind, isolatedDatabase } from '../../test/test-app.ts';

/** What the push service received: the request as it came, kept whole. */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on this machine, as a browser vendor runs one: it answers each path's status. */
async function startPushService(statusOf: (path: string) => number) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(statusOf(request.url ?? '')).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A browser's subscription keys: its P-256 pair and its authentication secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, json: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

/** Decrypts an `aes128gcm` Web Push body as the browser does (RFC 8291, RFC 8188). */
function decrypt(body: Buffer, keys: ReturnType<typeof browserKeys>): unknown {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = keys.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then zeros.
  let end = padded.length - 1;
  while (end > 0 && padded[end] === 0) end -= 1;
  expect(padded[end]).toBe(2);
  return JSON.parse(padded.subarray(0, end).toString('utf8')) as unknown;
}

/** Checks the VAPID header (RFC 8292): a JWT signed ES256 by the key given in `k`, for the push service's origin. */
function checkVapid(authorization: string | undefined, publicKey: string, origin: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  expect(match, authorization).not.toBeNull();
  const [, token = '', k = ''] = match ?? [];
  expect(k).toBe(publicKey);
  const [header = '', claims = '', signature = ''] = token.split('.');
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  expect(signed).toBe(true);
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  expect(body.aud).toBe(origin);
  expect(body.exp * 1000).toBeGreaterThan(Date.now());
  expect(body.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
  expect(body.sub).toMatch(/^(mailto:|https:)/);
}

/** Waits until `ready` holds, checking every 50 ms, for at most 10 s. */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('La condition attendue n’est pas arrivée en 10 s.');
}

describe(`Web Push (docs/api.md, Notifications poussées) on ${databaseKind}`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;
  let service: Awaited<ReturnType<typeof startPushService>>;
  // On PostgreSQL, a database of its own: another suite's app on the shared one could claim these
  // pushes from the outbox and refuse them, its own settings forbidding a push service on loopback.
  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;

  beforeAll(async () => {
    service = await startPushService((path) => (path.startsWith('/gone/') ? 410 : 201));
    isolated = await isolatedDatabase();
    t = await createTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL: 'https://vigie.example.fr', ...(isolated ? { DATABASE_URL: isolated.url } : {}) },
    });
    owner = await t.createAccount({ name: 'Camille Gérante' });
    stranger = await t.createAccount();
  });
  afterAll(async () => {
    await t.close();
    await service.close();
    await isolated?.drop();
  });

  const subscribe = (who: TestAccount, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/user/push-subscriptions', headers: who.auth, payload: payload as object });
  /** A sensor of `who` with a rule at +4 °C, then a reading at 9,2 °C: the alert that opens. */
  async function breach(who: TestAccount, name: string): Promise<string> {
    const sensor = await provision(t, who, 'sensor');
    await t.app.inject({ method: 'PUT', url: `/api/sensor/${sensor.deviceId}`, headers: who.auth, payload: { name } });
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/alert-rules',
      headers: who.auth,
      payload: { name: 'Crèmerie', sensorId: sensor.deviceId, condition: { type: 'above', key: 'temperature', threshold: 4 } },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    expect((await sendTelemetry(t, sensor.accessToken, { values: { temperature: 9.2 } })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    const alerts = (await t.app.inject({ url: `/api/alerts?sensorId=${sensor.deviceId}`, headers: who.auth })).json<{
      alerts: { id: string }[];
    }>().alerts;
    expect(alerts).toHaveLength(1);
    return alerts[0]?.id ?? '';
  }

  it('gives its VAPID public key: an uncompressed P-256 point, the same on every call', async () => {
    const first = await t.app.inject({ url: '/api/push/public-key' });
    expect(first.statusCode).toBe(200);
    const { publicKey } = first.json<{ publicKey: string }>();
    const point = Buffer.from(publicKey, 'base64url');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(4);
    expect((await t.app.inject({ url: '/api/push/public-key', headers: owner.auth })).json()).toEqual({ publicKey });
  });

  it('pushes an opened alert to the browsers of the people told, encrypted for each, signed with VAPID', async () => {
    const { publicKey } = (await t.app.inject({ url: '/api/push/public-key' })).json<{ publicKey: string }>();
    const phone = browserKeys();
    const endpoint = `${service.url}/push/${randomBytes(8).toString('hex')}`;
    const created = await subscribe(owner, { endpoint, expirationTime: null, keys: phone.json });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ subscription: { endpoint } });
    // Another organization's browser hears nothing of this alert.
    const elsewhere = `${service.url}/push/${randomBytes(8).toString('hex')}`;
    expect((await subscribe(stranger, { endpoint: elsewhere, keys: browserKeys().json })).statusCode).toBe(201);

    const alertId = await breach(owner, 'Vitrine crèmerie');
    await until(() => service.received.some((request) => request.path === new URL(endpoint).pathname));
    const request = service.received.find((entry) => entry.path === new URL(endpoint).pathname);
    expect(request?.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request?.headers['ttl'])).toBeGreaterThan(0);
    // A critical alert (the rule's default severity) asks the push service to wake the phone.
    expect(request?.headers['urgency']).toBe('high');
    checkVapid(request?.headers['authorization'], publicKey, service.url);
    const message = decrypt(request?.body ?? Buffer.alloc(0), phone) as Record<string, string>;
    expect(message['title']).toContain('Vitrine crèmerie');
    expect(message['body']).toContain('«\u202fVitrine crèmerie\u202f» (Magasin principal)');
    expect(message['body']).toContain('9,2\u00a0°C');
    expect(message['url']).toBe(`https://vigie.example.fr/dashboard/alertes/${alertId}`);
    expect(service.received.filter((entry) => entry.path === new URL(elsewhere).pathname)).toHaveLength(0);
    // Once: the next ticks send nothing more for this opening.
    await t.app.services.notifications.tick();
    expect(service.received.filter((entry) => entry.path === new URL(endpoint).pathname)).toHaveLength(1);
  });

  it('removes a subscription its push service says is gone (410), and one its browser withdrew', async () => {
    const gone = `${service.url}/gone/${randomBytes(8).toString('hex')}`;
    expect((await subscribe(owner, { endpoint: gone, keys: browserKeys().json })).statusCode).toBe(201);
    const withdrawn = `${service.url}/push/${randomBytes(8).toString('hex')}`;
    expect((await subscribe(owner, { endpoint: withdrawn, keys: browserKeys().json })).statusCode).toBe(201);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/user/push-subscriptions',
      headers: owner.auth,
      payload: { endpoint: withdrawn },
    });
    expect(removed.statusCode).toBe(204);

    const hits = (endpoint: string) => service.received.filter((entry) => entry.path === new URL(endpoint).pathname).length;
    await breach(owner, 'Congélateur réserve');
    await until(() => hits(gone) === 1);
    // The next alert is pushed to neither: the first was removed on its 410, the second by its browser.
    const later = `${service.url}/push/${randomBytes(8).toString('hex')}`;
    expect((await subscribe(owner, { endpoint: later, keys: browserKeys().json })).statusCode).toBe(201);
    await breach(owner, 'Chambre froide');
    await until(() => hits(later) === 1);
    await t.app.services.notifications.tick();
    expect(hits(gone)).toBe(1);
    expect(hits(withdrawn)).toBe(0);
  });

  it('refuses bad subscriptions with a French message and stores nothing', async () => {
    const endpoint = `${service.url}/push/${randomBytes(8).toString('hex')}`;
    const keys = browserKeys().json;
    const cases: [unknown, string][] = [
      [{ keys }, 'endpoint'],
      [{ endpoint: 'ftp://exemple.fr/x', keys }, 'http(s)'],
      [{ endpoint, keys: { p256dh: keys.p256dh } }, 'auth'],
      [{ endpoint, keys: { p256dh: 'AAAA', auth: keys.auth } }, '65 octets'],
      [{ endpoint, keys: { ...keys, auth: 'pas du base64!' } }, 'base64url'],
      [{ endpoint, keys, extra: 1 }, ''],
    ];
    for (const [payload, message] of cases) {
      const response = await subscribe(owner, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/user/push-subscriptions', payload: { endpoint, keys } })).statusCode).toBe(401);
  });

  it('refuses a push service on loopback or a private network unless the operator allows it', async () => {
    const strict = await createTestApp();
    try {
      const someone = await strict.createAccount();
      for (const endpoint of ['http://127.0.0.1:9/push/x', 'https://10.0.0.8/push/x', 'https://[::1]/push/x']) {
        const response = await strict.app.inject({
          method: 'POST',
          url: '/api/user/push-subscriptions',
          headers: someone.auth,
          payload: { endpoint, keys: browserKeys().json },
        });
        expect(response.statusCode).toBe(400);
        expect(response.json<{ message: string }>().message).toContain('réseau privé');
      }
      // A name that does not resolve from here now is kept: each sending checks the address again.
      const later = await strict.app.inject({
        method: 'POST',
        url: '/api/user/push-subscriptions',
        headers: someone.auth,
        payload: { endpoint: 'https://push.example.invalid/push/x', keys: browserKeys().json },
      });
      expect(later.statusCode).toBe(201);
    } finally {
      await strict.close();
    }
  });
});
