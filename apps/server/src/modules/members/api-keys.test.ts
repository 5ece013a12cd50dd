import { randomUUID } from 'node:crypto';
import type { ApiKey, AuditEvent, CreatedApiKeyResponse, Sensor, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../events/live-event.ts';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { openStream } from '../../test/sse-client.ts';
import { registeredRoutes } from '../../plugins/permissions.ts';
import { setRole } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, isolatedDatabase, type TestAccount, type TestApp } from '../../test/test-app.ts';

const HOUR_MS = 3_600_000;

/** docs/api.md, Clés d’API and Export des lectures: keys that act with their role and scope, and every reading as CSV. */
describe(`API keys and the export of every reading (${databaseKind})`, () => {
  let t: TestApp;
  let admin: TestAccount;
  let viewer: TestAccount;
  let baseUrl: string;
  let clock = new Date();
  const sites: Record<'paris' | 'montreal', Site> = {} as never;
  const sensors: Record<'paris' | 'montreal', { deviceId: string; accessToken: string }> = {} as never;
  /** Two readings a site, an hour apart, a little in the past, on the hour. */
  const firstAt = Math.floor((Date.now() - 5 * HOUR_MS) / HOUR_MS) * HOUR_MS;

  const call = (auth: { authorization: string }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload }) });
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const createKey = async (body: object) => {
    const response = await call(admin.auth, 'POST', '/api/api-keys', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedApiKeyResponse>().apiKey;
  };
  const csvLines = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    ({ baseUrl } = await t.listen());
    const organization = `Chaîne ${randomUUID()}`;
    admin = await t.createAccount({ organization, name: 'Directrice' });
    viewer = await t.createAccount({ organization, name: 'Lecteur' });
    await setRole(t, viewer.id, 'viewer');
    const zones = { paris: 'Europe/Paris', montreal: 'America/Toronto' } as const;
    for (const city of ['paris', 'montreal'] as const) {
      const created = await call(admin.auth, 'POST', '/api/sites', { name: `Magasin ${city}`, timezone: zones[city] });
      expect(created.statusCode, created.body).toBe(201);
      sites[city] = created.json<{ site: Site }>().site;
      const sensor = await provision(t, admin, 'sensor');
      const moved = await call(admin.auth, 'PUT', `/api/sensor/${sensor.deviceId}`, { name: `Vitrine ${city}`, siteId: sites[city].id });
      expect(moved.statusCode, moved.body).toBe(200);
      sensors[city] = sensor;
      const sent = await sendTelemetry(t, sensor.accessToken, [
        { ts: firstAt, values: { temperature: 3.25, humidity: 61 } },
        { ts: firstAt + HOUR_MS, values: { temperature: -1.5 } },
      ]);
      expect(sent.statusCode, sent.body).toBe(202);
    }
  });
  afterAll(() => t.close());

  it('creates a key shown once, lists it without its secret, and refuses what a key may not be', async () => {
    const created = await createKey({ name: 'GTB du siège', role: 'viewer' });
    expect(created).toEqual({
      id: expect.any(String),
      name: 'GTB du siège',
      role: 'viewer',
      scope: null,
      prefix: created.key.slice(0, 11),
      createdAt: expect.any(String),
      expiresAt: null,
      lastUsedAt: null,
      key: expect.stringMatching(/^vk_[A-Za-z0-9_-]{43}$/),
    });
    const listed = (await call(admin.auth, 'GET', '/api/api-keys')).json<{ apiKeys: ApiKey[] }>().apiKeys;
    const { key: _secret, ...shown } = created;
    expect(listed).toContainEqual(shown);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const refused = async (body: object) => {
      const response = await call(admin.auth, 'POST', '/api/api-keys', body);
      expect(response.statusCode, response.body).toBe(400);
      return response.json<{ message: string }>().message;
    };
    expect(await refused({ name: 'Trop', role: 'admin' })).toMatch(/une clé ne peut pas être administrateur/);
    expect(await refused({ name: 'Passée', role: 'viewer', expiresAt: new Date(clock.getTime() - 1000).toISOString() })).toBe(
      'L’échéance de la clé est passée : choisissez une date à venir.',
    );
    expect(await refused({ name: 'Ailleurs', role: 'viewer', scope: { siteIds: [randomUUID()] } })).toBe(
      'La portée nomme un site qui n’est pas celui de l’organisation.',
    );
    expect(await refused({ role: 'viewer' })).toBeTruthy();
    // Only admins manage keys.
    expect((await call(viewer.auth, 'GET', '/api/api-keys')).statusCode).toBe(403);
  });

  it('acts with its role: a viewer key reads sensors and may not create one; a manager key may, named in the audit trail', async () => {
    const reader = await createKey({ name: 'Lecture seule', role: 'viewer' });
    const listed = await call(bearer(reader.key), 'GET', '/api/sensor');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(
      listed
        .json<{ sensors: Sensor[] }>()
        .sensors.map((sensor) => sensor.id)
        .sort(),
    ).toEqual([sensors.paris.deviceId, sensors.montreal.deviceId].sort());
    expect((await call(bearer(reader.key), 'POST', '/api/sensor', { name: 'Interdite' })).statusCode).toBe(403);

    const writer = await createKey({ name: 'Intégrateur', role: 'manager' });
    const made = await call(bearer(writer.key), 'POST', '/api/sensor', { name: 'Sonde de l’intégrateur' });
    expect(made.statusCode, made.body).toBe(201);
    const madeId = made.json<{ sensor: Sensor }>().sensor.id;
    const trail = (await call(admin.auth, 'GET', '/api/audit?action=device.created')).json<{ events: AuditEvent[] }>().events;
    expect(trail.find((event) => event.subject?.id === madeId)?.actor).toEqual({
      id: writer.id,
      name: 'Clé d’API « Intégrateur »',
      email: writer.prefix,
    });
    // Its last use is noted (to the minute).
    const [again] = (await call(admin.auth, 'GET', '/api/api-keys'))
      .json<{ apiKeys: ApiKey[] }>()
      .apiKeys.filter((k) => k.id === writer.id);
    expect(again?.lastUsedAt).toEqual(expect.any(String));
    await call(bearer(writer.key), 'DELETE', `/api/sensor/${madeId}`);
  });

  it('is refused the team, invitations, keys, the security settings and a personal account (403)', async () => {
    const writer = await createKey({ name: 'Pas l’équipe', role: 'manager' });
    const refused: ['GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
      ['GET', '/api/members'],
      ['PUT', `/api/members/${admin.id}`, { role: 'viewer' }],
      ['DELETE', `/api/members/${admin.id}`],
      ['GET', '/api/invitations'],
      ['POST', '/api/invitations', { email: 'quelqu-un@example.fr', role: 'viewer' }],
      ['GET', '/api/api-keys'],
      ['POST', '/api/api-keys', { name: 'Une autre', role: 'viewer' }],
      ['DELETE', `/api/api-keys/${writer.id}`],
      ['GET', '/api/organization/security'],
      ['PUT', '/api/organization/security', { requireTotpForAdmins: true }],
      ['GET', '/api/user/me'],
      ['POST', '/api/auth/logout'],
    ];
    for (const [method, url, payload] of refused) {
      const response = await call(bearer(writer.key), method, url, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      expect(response.json<{ message: string }>().message).toMatch(/^Une clé d’API ne peut pas/);
    }
    // And every route of the catalogue marked for people only, or of a person's own account.
    const personal = registeredRoutes(t.app).filter(({ permission }) => permission.peopleOnly || permission.scope.kind === 'own');
    expect(personal.length).toBeGreaterThan(refused.length);
    for (const { method, url } of personal) {
      const response = await call(bearer(writer.key), method as 'GET', url.replace(':id', randomUUID()));
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
    }
    // Nothing was undone by them: the key still works.
    expect((await call(bearer(writer.key), 'GET', '/api/sensor')).statusCode).toBe(200);
  });

  it('is refused (401) once revoked, at once, and past its expiry on the clock', async () => {
    const key = await createKey({ name: 'À révoquer', role: 'viewer' });
    expect((await call(bearer(key.key), 'GET', '/api/sensor')).statusCode).toBe(200);
    expect((await call(admin.auth, 'DELETE', `/api/api-keys/${key.id}`)).statusCode).toBe(204);
    const after = await call(bearer(key.key), 'GET', '/api/sensor');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: 'Clé d’API invalide, révoquée ou expirée.' });
    expect((await call(admin.auth, 'DELETE', `/api/api-keys/${key.id}`)).statusCode).toBe(404);
    const listed = (await call(admin.auth, 'GET', '/api/api-keys')).json<{ apiKeys: ApiKey[] }>().apiKeys;
    expect(listed.map((k) => k.id)).not.toContain(key.id);
    const trail = (await call(admin.auth, 'GET', '/api/audit?action=api_key.revoked')).json<{ events: AuditEvent[] }>().events;
    expect(trail[0]?.subject).toEqual({ type: 'api_key', id: key.id, name: 'À révoquer' });

    const expiring = await createKey({ name: 'Une heure', role: 'viewer', expiresAt: new Date(clock.getTime() + HOUR_MS).toISOString() });
    expect((await call(bearer(expiring.key), 'GET', '/api/sensor')).statusCode).toBe(200);
    clock = new Date(clock.getTime() + 2 * HOUR_MS);
    try {
      expect((await call(bearer(expiring.key), 'GET', '/api/sensor')).statusCode).toBe(401);
    } finally {
      clock = new Date();
    }
    // A key never issued, or malformed, is as invalid.
    expect((await call(bearer(`vk_${'A'.repeat(43)}`), 'GET', '/api/sensor')).statusCode).toBe(401);
    expect((await call(bearer('vk_court'), 'GET', '/api/sensor')).statusCode).toBe(401);
  });

  it('sees only the sites of its scope', async () => {
    const scoped = await createKey({ name: 'Paris seulement', role: 'viewer', scope: { siteIds: [sites.paris.id] } });
    expect(scoped.scope).toEqual({ siteIds: [sites.paris.id], regionIds: [] });
    const listed = (await call(bearer(scoped.key), 'GET', '/api/sensor')).json<{ sensors: Sensor[] }>().sensors;
    expect(listed.map((sensor) => sensor.id)).toEqual([sensors.paris.deviceId]);
    expect((await call(bearer(scoped.key), 'GET', `/api/sensor/${sensors.montreal.deviceId}`)).statusCode).toBe(404);
    const from = new Date(firstAt - HOUR_MS).toISOString();
    const to = new Date(firstAt + 2 * HOUR_MS).toISOString();
    const csv = await call(bearer(scoped.key), 'GET', `/api/readings.csv?from=${from}&to=${to}`);
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = csvLines(csv.body).slice(1);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.includes(sensors.paris.deviceId))).toBe(true);
    expect((await call(bearer(scoped.key), 'GET', `/api/readings.csv?from=${from}&to=${to}&siteId=${sites.montreal.id}`)).statusCode).toBe(
      404,
    );
  });

  it('follows the live stream of its scope only, closed as soon as the key is revoked', async () => {
    const scoped = await createKey({ name: 'Flux de Paris', role: 'viewer', scope: { siteIds: [sites.paris.id] } });
    const stream = await openStream(baseUrl, scoped.key);
    expect(stream.response.status).toBe(200);
    const watcher = await openStream(baseUrl, admin.token);
    expect((await sendTelemetry(t, sensors.montreal.accessToken, { temperature: 4.5 })).statusCode).toBe(202);
    expect((await sendTelemetry(t, sensors.paris.accessToken, { temperature: 4.75 })).statusCode).toBe(202);
    await watcher.waitFor((e) => e.event === 'reading' && e.data.includes(sensors.montreal.deviceId));
    await stream.waitFor((e) => e.event === 'reading' && e.data.includes(sensors.paris.deviceId));
    expect(stream.events.filter((e) => e.data.includes(sensors.montreal.deviceId))).toEqual([]);
    expect((await call(admin.auth, 'DELETE', `/api/api-keys/${scoped.id}`)).statusCode).toBe(204);
    await stream.ended;
    await watcher.close();
  });

  it('exports every reading of the period as CSV: BOM, « ; », decimal comma, each shop’s local time, filters', async () => {
    const from = new Date(firstAt - HOUR_MS).toISOString();
    const to = new Date(firstAt + 2 * HOUR_MS).toISOString();
    // Any member exports what they see: a viewer too.
    const response = await call(viewer.auth, 'GET', `/api/readings.csv?from=${from}&to=${to}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.body.startsWith('\uFEFFcapteur;id;magasin;horodatage;mesure;valeur\r\n')).toBe(true);
    const local = (timeZone: string, ms: number) =>
      new Intl.DateTimeFormat('sv-SE', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }).format(new Date(ms));
    const rows = csvLines(response.body).slice(1);
    // Shop by shop (by name), sensor by sensor, then in time order, measures by key.
    expect(rows).toEqual([
      `Vitrine montreal;${sensors.montreal.deviceId};Magasin montreal;${local('America/Toronto', firstAt)};humidity;61`,
      `Vitrine montreal;${sensors.montreal.deviceId};Magasin montreal;${local('America/Toronto', firstAt)};temperature;3,25`,
      `Vitrine montreal;${sensors.montreal.deviceId};Magasin montreal;${local('America/Toronto', firstAt + HOUR_MS)};temperature;-1,5`,
      `Vitrine paris;${sensors.paris.deviceId};Magasin paris;${local('Europe/Paris', firstAt)};humidity;61`,
      `Vitrine paris;${sensors.paris.deviceId};Magasin paris;${local('Europe/Paris', firstAt)};temperature;3,25`,
      `Vitrine paris;${sensors.paris.deviceId};Magasin paris;${local('Europe/Paris', firstAt + HOUR_MS)};temperature;-1,5`,
    ]);
    expect(rows[0]).toMatch(/;\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2};/);

    const filtered = await call(
      admin.auth,
      'GET',
      `/api/readings.csv?from=${new Date(firstAt + 1).toISOString()}&to=${to}&siteId=${sites.paris.id}&key=temperature`,
    );
    expect(csvLines(filtered.body).slice(1)).toEqual([
      `Vitrine paris;${sensors.paris.deviceId};Magasin paris;${local('Europe/Paris', firstAt + HOUR_MS)};temperature;-1,5`,
    ]);
  });

  it('refuses a missing, reversed or too long period, and another organization’s site (French messages)', async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const message = async (query: string, status = 400) => {
      const response = await call(admin.auth, 'GET', `/api/readings.csv?${query}`);
      expect(response.statusCode, response.body).toBe(status);
      return response.json<{ message: string }>().message;
    };
    expect(await message(`to=${iso(now)}`)).toMatch(/from/);
    expect(await message(`from=${iso(now - HOUR_MS)}`)).toMatch(/to/);
    expect(await message(`from=${iso(now)}&to=${iso(now - HOUR_MS)}`)).toBe(
      'Période invalide : le début (from) doit précéder la fin (to).',
    );
    expect(await message(`from=${iso(now - 367 * 24 * HOUR_MS)}&to=${iso(now)}`)).toBe(
      'Période trop longue : 366 jours au plus par export ; découpez-la.',
    );
    expect(await message(`from=hier&to=${iso(now)}`)).toMatch(/from/);
    expect(await message(`from=${iso(now - HOUR_MS)}&to=${iso(now)}&key=temp%C3%A9rature`)).toMatch(/^Mesure inconnue/);
    expect(await message(`from=${iso(now - HOUR_MS)}&to=${iso(now)}&siteId=${randomUUID()}`, 404)).toBe('Site introuvable.');
  });
});

/** A key revoked on one instance is refused at once by another that had it in memory. */
describe.skipIf(databaseKind !== 'PostgreSQL')('API keys on two instances (PostgreSQL)', { timeout: 120_000 }, () => {
  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    isolated = await isolatedDatabase();
    if (!isolated) throw new Error('PostgreSQL attendu');
    a = await createTestApp({ env: { DATABASE_URL: isolated.url }, rateLimitScope: 'keys' });
    b = await createTestApp({
      env: { DATABASE_URL: isolated.url },
      rateLimitScope: 'keys',
      applicationName: `vigie-keys-b-${process.pid}`,
    });
    owner = await a.createAccount();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await isolated?.drop();
  });

  it('refuses on the other instance the key revoked on one, once the revocation answered', async () => {
    await expect.poll(() => b.database.pubsub.live() && a.database.pubsub.live()).toBe(true);
    const created = await a.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: owner.auth,
      payload: { name: 'Partout', role: 'viewer' },
    });
    const { id, key } = created.json<CreatedApiKeyResponse>().apiKey;
    const auth = { authorization: `Bearer ${key}` };
    // B keeps the key in memory.
    expect((await b.app.inject({ url: '/api/sensor', headers: auth })).statusCode).toBe(200);
    const heard = new Promise<void>((resolve) => {
      const stop = b.app.services.events.subscribeAll((event: LiveEvent) => {
        if (event.type === 'session-ended' && event.data.sessionId === id) {
          stop();
          resolve();
        }
      });
    });
    expect((await a.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: owner.auth })).statusCode).toBe(204);
    await heard;
    expect((await b.app.inject({ url: '/api/sensor', headers: auth })).statusCode).toBe(401);
  });
});
