import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, installationKey, provision, readingsOf, sendTelemetry } from '../../test/device-helpers.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';
import { storedTokenHash } from '../../test/test-dal.ts';

interface SensorBody {
  sensor: {
    id: string;
    name: string;
    serial: string;
    status: string;
    lastSeenAt: string | null;
    battery: number | null;
    emitterId: string | null;
    latest: Record<string, { value: number; ts: string }>;
  };
}

describe(`plug-and-play and HTTP telemetry on ${databaseKind}`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
    stranger = await t.createAccount();
  });
  afterAll(() => t.close());

  describe('installation key', () => {
    it('is stable until regenerated; the old key then stops installing devices', async () => {
      const first = await installationKey(t, owner);
      expect(first).toMatch(/^vik_[\w-]{32}$/);
      expect(await installationKey(t, owner)).toBe(first);
      const rotated = await t.app.inject({ method: 'POST', url: '/api/organization/installation-key', headers: owner.auth });
      expect(rotated.statusCode).toBe(200);
      const second = rotated.json<{ installationKey: string }>().installationKey;
      expect(second).not.toBe(first);
      const old = await t.app.inject({
        method: 'POST',
        url: '/api/devices/provision',
        payload: { installationKey: first, serial: 'X-1', kind: 'sensor' },
      });
      expect(old.statusCode).toBe(401);
      expect(old.json<{ message: string }>().message).toMatch(/Clé d'installation invalide/);
    });

    it('differs between organizations and needs a signed-in user', async () => {
      expect(await installationKey(t, owner)).not.toBe(await installationKey(t, stranger));
      expect((await t.app.inject({ url: '/api/organization/installation-key' })).statusCode).toBe(401);
    });
  });

  describe('provisioning', () => {
    it('installs a sensor with only the key and its serial: 201, then it is in the list with status never', async () => {
      const device = await provision(t, owner, 'sensor', 'FRIGO-0001');
      expect(device.kind).toBe('sensor');
      expect(device.accessToken).toMatch(/^vdt_/);
      const read = await t.app.inject({ url: `/api/sensor/${device.deviceId}`, headers: owner.auth });
      expect(read.json<SensorBody>().sensor).toMatchObject({ serial: 'FRIGO-0001', status: 'never', lastSeenAt: null, latest: {} });
      expect(read.json<SensorBody>().sensor.name).toContain('FRIGO-0001');
    });

    it('returns the same device for the same serial, with a new token that revokes the old one', async () => {
      const first = await provision(t, owner, 'emitter', 'GW-42');
      const again = await provision(t, owner, 'emitter', 'GW-42');
      expect(again.deviceId).toBe(first.deviceId);
      expect(again.accessToken).not.toBe(first.accessToken);
      expect((await sendTelemetry(t, first.accessToken, { temperature: 20 })).statusCode).toBe(401);
      expect((await sendTelemetry(t, again.accessToken, { temperature: 20 })).statusCode).toBe(202);
    });

    it('takes the silence limit a device announces, at installation and again later', async () => {
      const installationKeyValue = await installationKey(t, owner);
      const provisionWith = (inactivityTimeoutSeconds: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/devices/provision',
          payload: { installationKey: installationKeyValue, serial: 'HB-1', kind: 'sensor', inactivityTimeoutSeconds },
        });
      const first = await provisionWith(45);
      expect(first.statusCode).toBe(201);
      const { deviceId } = first.json<{ deviceId: string }>();
      const read = async () =>
        (await t.app.inject({ url: `/api/sensor/${deviceId}`, headers: owner.auth })).json<{
          sensor: { inactivityTimeoutSeconds: number };
        }>().sensor;
      expect((await read()).inactivityTimeoutSeconds).toBe(45);
      expect((await provisionWith(90)).statusCode).toBe(201);
      expect((await read()).inactivityTimeoutSeconds).toBe(90);
      expect((await provisionWith(5)).statusCode).toBe(400);
    });

    it.each([
      [{ serial: 'A', kind: 'sensor' }, 400, /clé d'installation/i],
      [{ installationKey: 'vik_nope', serial: 'A', kind: 'sensor' }, 401, /invalide/],
      [{ installationKey: 'k', serial: '', kind: 'sensor' }, 400, /série/],
      [{ installationKey: 'k', serial: 'A', kind: 'fridge' }, 400, /emitter|sensor/],
      [{ installationKey: 'k', serial: 'A', kind: 'sensor', admin: true }, 400, /admin/],
    ])('refuses %j with %i', async (payload, status, message) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/devices/provision', payload });
      expect(response.statusCode).toBe(status);
      expect(response.json<{ message: string }>().message).toMatch(message);
    });
  });

  describe('device tokens', () => {
    it('issues a new token shown once; the previous one is refused at once', async () => {
      const device = await provision(t, owner, 'sensor');
      const rotated = await t.app.inject({ method: 'POST', url: `/api/sensor/${device.deviceId}/token`, headers: owner.auth });
      expect(rotated.statusCode).toBe(201);
      const { accessToken } = rotated.json<{ accessToken: string }>();
      expect((await sendTelemetry(t, device.accessToken, { temperature: 1 })).statusCode).toBe(401);
      expect((await sendTelemetry(t, accessToken, { temperature: 1 })).statusCode).toBe(202);
    });

    it("answers 404 for another organization's device and never shows its token", async () => {
      const device = await provision(t, owner, 'sensor');
      const response = await t.app.inject({ method: 'POST', url: `/api/sensor/${device.deviceId}/token`, headers: stranger.auth });
      expect(response.statusCode).toBe(404);
      expect((await sendTelemetry(t, device.accessToken, { temperature: 1 })).statusCode).toBe(202);
    });

    it('stores tokens only as hashes', async () => {
      const device = await provision(t, owner, 'sensor');
      const row = { token_hash: await storedTokenHash(t, device.deviceId) };
      expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row?.token_hash).not.toContain(device.accessToken.slice(4));
    });
  });

  describe('telemetry', () => {
    it('accepts one reading, a flat object and an array; updates latest, lastSeenAt, battery and status', async () => {
      const device = await provision(t, owner, 'sensor');
      const at = new Date(Date.now() - 60_000).toISOString();
      expect((await sendTelemetry(t, device.accessToken, { ts: at, values: { temperature: 4.2, humidity: 61 } })).json()).toEqual({
        accepted: 1,
      });
      expect((await sendTelemetry(t, device.accessToken, { temperature: 4.4, battery: 87 })).json()).toEqual({
        accepted: 1,
      });
      const batch = await sendTelemetry(t, device.accessToken, [
        { ts: Date.now() - 30_000, temperature: 4.3 },
        { ts: Date.now() - 20_000, values: { door: true } },
      ]);
      expect(batch.statusCode).toBe(202);
      expect(batch.json()).toEqual({ accepted: 2 });

      const { sensor } = (await t.app.inject({ url: `/api/sensor/${device.deviceId}`, headers: owner.auth })).json<SensorBody>();
      expect(sensor.status).toBe('online');
      expect(sensor.battery).toBe(87);
      expect(Date.now() - Date.parse(sensor.lastSeenAt ?? '')).toBeLessThan(10_000);
      expect(sensor.latest['temperature']?.value).toBe(4.4);
      expect(sensor.latest['humidity']).toEqual({ value: 61, ts: at });
      expect(sensor.latest['door']?.value).toBe(1);
      expect(await countRows(t, device.deviceId)).toBe(6);
    });

    it('stores a retried reading (same id) once', async () => {
      const device = await provision(t, owner, 'sensor');
      const reading = { id: 'msg-1', ts: Date.now() - 1000, values: { temperature: 3.1, humidity: 50 } };
      for (let i = 0; i < 3; i += 1) expect((await sendTelemetry(t, device.accessToken, reading)).statusCode).toBe(202);
      expect((await sendTelemetry(t, device.accessToken, [reading, reading])).statusCode).toBe(202);
      expect(await countRows(t, device.deviceId)).toBe(2);
    });

    it('lets a transmitter send for a sensor of its organization, by serial or id, and attaches it', async () => {
      const gateway = await provision(t, owner, 'emitter');
      const sensor = await provision(t, owner, 'sensor', `CHILD-${Date.now()}`);
      const response = await sendTelemetry(t, gateway.accessToken, [
        { sensor: sensor.serial, temperature: -18.5 },
        { sensor: sensor.deviceId, values: { battery: 55 } },
      ]);
      expect(response.statusCode).toBe(202);
      const { sensor: read } = (await t.app.inject({ url: `/api/sensor/${sensor.deviceId}`, headers: owner.auth })).json<SensorBody>();
      expect(read).toMatchObject({ status: 'online', battery: 55, emitterId: gateway.deviceId });
      expect(read.latest['temperature']?.value).toBe(-18.5);
    });

    it("refuses a transmitter's reading for another organization's sensor like an unknown one", async () => {
      const gateway = await provision(t, owner, 'emitter');
      const foreign = await provision(t, stranger, 'sensor');
      const response = await sendTelemetry(t, gateway.accessToken, { sensor: foreign.serial, temperature: 1 });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/Capteur inconnu/);
      expect(await countRows(t, foreign.deviceId)).toBe(0);
    });

    it('answers 401 without a token, with a user token, or with a revoked one', async () => {
      expect((await t.app.inject({ method: 'POST', url: '/api/devices/telemetry', payload: { temperature: 1 } })).statusCode).toBe(401);
      expect((await sendTelemetry(t, owner.token, { temperature: 1 })).statusCode).toBe(401);
      expect((await sendTelemetry(t, 'vdt_invented', { temperature: 1 })).statusCode).toBe(401);
    });

    describe('refuses bad input clearly and stores nothing of the message', () => {
      const now = Date.now();
      const cases: [string, unknown, number, RegExp][] = [
        ['malformed JSON', '{"temperature": 4.', 400, /JSON valide/],
        ['a string for a number', { temperature: '4.2' }, 400, /nombre fini/],
        ['null value', { temperature: null }, 400, /nombre fini/],
        ['an object value', { temperature: { v: 1 } }, 400, /nombre fini/],
        ['no values', { ts: now }, 400, /aucune mesure/],
        ['an empty array', [], 400, /vide/],
        ['a bad key', { 'temp rature': 1 }, 400, /nom de mesure/],
        ['values next to unknown fields', { values: { temperature: 1 }, extra: 2 }, 400, /champ inconnu/],
        ['values not an object', { values: [1, 2] }, 400, /values/],
        ['a timestamp far in the future', { ts: now + 3600_000, temperature: 1 }, 400, /futur/],
        ['a timestamp older than retention', { ts: '2001-01-01T00:00:00Z', temperature: 1 }, 400, /conservation/],
        ['a timestamp in a bad format', { ts: 'hier', temperature: 1 }, 400, /horodatage/],
        ['a sensor reference from a sensor', { sensor: 'X', temperature: 1 }, 400, /seul un émetteur/],
        ['one bad reading in a batch', [{ temperature: 1 }, { temperature: 2 }, { temperature: 'x' }], 400, /Lecture n° 3/],
        ['10 000 readings in one batch', Array.from({ length: 10_000 }, () => ({ t: 1 })), 413, /1\s000 au plus/],
        ['33 values in one reading', Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])), 400, /trop de mesures/],
        ['a text/plain body', 'temperature=4', 415, /JSON/],
      ];
      it.each(cases)('%s → %i', async (_, payload, status, message) => {
        const device = await provision(t, owner, 'sensor');
        const response = await sendTelemetry(t, device.accessToken, payload, _ === 'a text/plain body' ? 'text/plain' : 'application/json');
        expect(response.statusCode).toBe(status);
        expect(response.json<{ message: string }>().message).toMatch(message);
        expect(await countRows(t, device.deviceId)).toBe(0);
        // The device and the server are still fine.
        expect((await sendTelemetry(t, device.accessToken, { temperature: 5 })).statusCode).toBe(202);
      });

      it('a body over 1 MiB → 413', async () => {
        const device = await provision(t, owner, 'sensor');
        const huge = JSON.stringify({ values: { temperature: 1 }, padding: 'x'.repeat(1_100_000) });
        const response = await sendTelemetry(t, device.accessToken, huge);
        expect(response.statusCode).toBe(413);
        expect(await countRows(t, device.deviceId)).toBe(0);
      });

      it('NaN and Infinity (not JSON) are refused as malformed', async () => {
        const device = await provision(t, owner, 'sensor');
        for (const raw of ['{"temperature": NaN}', '{"temperature": Infinity}', '{"temperature": 1e999}']) {
          const response = await sendTelemetry(t, device.accessToken, raw);
          expect(response.statusCode, raw).toBe(400);
        }
        expect(await countRows(t, device.deviceId)).toBe(0);
      });
    });
  });

  describe('history', () => {
    it('buckets readings server-side with min, avg, max and count', async () => {
      const device = await provision(t, owner, 'sensor');
      const start = Date.now() - 3600_000;
      const batch = Array.from({ length: 60 }, (_, i) => ({ ts: start + i * 60_000, values: { temperature: i % 2 ? 4 : 2 } }));
      expect((await sendTelemetry(t, device.accessToken, batch)).statusCode).toBe(202);
      const from = new Date(start).toISOString();
      const to = new Date(start + 3600_000).toISOString();
      const response = await readingsOf(t, owner, device.deviceId, `key=temperature&from=${from}&to=${to}&buckets=6`);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ readings: { ts: string; min: number; avg: number; max: number; count: number }[]; keys: string[] }>();
      expect(body.keys).toEqual(['temperature']);
      expect(body.readings).toHaveLength(6);
      for (const bucket of body.readings) expect(bucket).toMatchObject({ min: 2, avg: 3, max: 4, count: 10 });
      expect(body.readings[0]?.ts).toBe(from);
    });

    it("is 404 for another organization's sensor and 400 for a bad query", async () => {
      const device = await provision(t, owner, 'sensor');
      expect((await readingsOf(t, stranger, device.deviceId)).statusCode).toBe(404);
      expect((await readingsOf(t, owner, device.deviceId, 'buckets=0')).statusCode).toBe(400);
      expect((await readingsOf(t, owner, device.deviceId, 'from=hier')).statusCode).toBe(400);
      expect((await readingsOf(t, owner, device.deviceId, 'from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')).statusCode).toBe(400);
    });

    it('exports raw readings as a French spreadsheet CSV', async () => {
      const device = await provision(t, owner, 'sensor');
      const ts = Date.parse('2026-06-15T10:00:00Z');
      const from = new Date(ts - 1000).toISOString();
      const fresh = Date.now() - 5000;
      await sendTelemetry(t, device.accessToken, [{ ts: fresh, values: { temperature: 4.25, humidity: 60 } }]);
      const response = await t.app.inject({
        url: `/api/sensor/${device.deviceId}/readings.csv?from=${new Date(fresh - 1000).toISOString()}&tz=Europe/Paris`,
        headers: owner.auth,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/csv');
      expect(response.headers['content-disposition']).toContain('attachment');
      const lines = response.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('Date et heure (locale);Horodatage UTC;Mesure;Valeur;Unité');
      expect(lines).toHaveLength(3);
      expect(lines.some((line) => line.endsWith(';Température;4,25;°C'))).toBe(true);
      expect(from).toBeTruthy();
      const foreign = await t.app.inject({ url: `/api/sensor/${device.deviceId}/readings.csv`, headers: stranger.auth });
      expect(foreign.statusCode).toBe(404);
    });
  });

  it('deleting a device revokes its token and keeps its readings in the trash until the purge', async () => {
    const device = await provision(t, owner, 'sensor');
    await sendTelemetry(t, device.accessToken, { temperature: 2 });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/sensor/${device.deviceId}`, headers: owner.auth })).statusCode).toBe(204);
    expect((await sendTelemetry(t, device.accessToken, { temperature: 2 })).statusCode).toBe(401);
    expect(await countRows(t, device.deviceId)).toBe(1);
  });
});
