import type { DeviceKind } from '@vigie/contract';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeTrash } from './trash-purge.ts';
import { countRows, provision, sendTelemetry } from '../../test/device-helpers.ts';
import { openStream } from '../../test/sse-client.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind, isolatedDatabase } from '../../test/test-app.ts';

interface TrashedDevice {
  kind: DeviceKind;
  id: string;
  name: string;
  serial: string | null;
  deletedAt: string;
  purgeAt: string;
}

const DAY_MS = 24 * 3600 * 1000;
const NOT_IN_TRASH = 'Cet appareil n’est pas dans la corbeille.';

describe(`trash (Corbeille) on ${databaseKind}`, () => {
  let t: TestApp;
  let baseUrl: string;
  let mqttUrl: string;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    ({ baseUrl, mqttUrl } = await t.listen());
    owner = await t.createAccount();
    stranger = await t.createAccount();
  });
  afterAll(() => t.close());

  const remove = (account: TestAccount, kind: string, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/${kind}/${id}`, headers: account.auth });
  const restore = (account: TestAccount, kind: string, id: string, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/${kind}/${id}/restore`,
      headers: payload ? { ...account.auth, 'content-type': 'application/json' } : account.auth,
      ...(payload ? { payload } : {}),
    });
  const trashOf = async (account: TestAccount) => {
    const response = await t.app.inject({ url: '/api/trash', headers: account.auth });
    expect(response.statusCode).toBe(200);
    return response.json<{ devices: TrashedDevice[] }>().devices;
  };
  const listIds = async (account: TestAccount, kind: DeviceKind) => {
    const response = await t.app.inject({ url: `/api/${kind}`, headers: account.auth });
    return (response.json<Record<string, { id: string }[]>>()[`${kind}s`] ?? []).map((device) => device.id);
  };

  it('moves a deleted device to the trash: gone from the list, 404 on read, listed with its purge date', async () => {
    const device = await provision(t, owner, 'sensor');
    const before = Date.now();
    expect((await remove(owner, 'sensor', device.deviceId)).statusCode).toBe(204);
    expect(await listIds(owner, 'sensor')).not.toContain(device.deviceId);
    const read = await t.app.inject({ url: `/api/sensor/${device.deviceId}`, headers: owner.auth });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual({ message: 'Capteur introuvable.' });
    for (const method of ['PUT', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: `/api/sensor/${device.deviceId}`,
        headers: owner.auth,
        ...(method === 'PUT' ? { payload: { name: 'Autre' } } : {}),
      });
      expect(response.statusCode).toBe(404);
    }
    const trashed = (await trashOf(owner)).find((entry) => entry.id === device.deviceId);
    expect(trashed).toMatchObject({ kind: 'sensor', id: device.deviceId, serial: device.serial });
    const deletedAt = new Date(trashed?.deletedAt ?? 0).getTime();
    expect(deletedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(trashed?.purgeAt ?? 0).getTime()).toBe(deletedAt + 30 * DAY_MS);
  });

  it('lists the newest deletion first, transmitters and sensors together', async () => {
    const emitter = await provision(t, owner, 'emitter');
    const sensor = await provision(t, owner, 'sensor');
    await remove(owner, 'emitter', emitter.deviceId);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await remove(owner, 'sensor', sensor.deviceId);
    const ids = (await trashOf(owner)).map((entry) => entry.id);
    expect(ids.indexOf(sensor.deviceId)).toBeLessThan(ids.indexOf(emitter.deviceId));
    expect(ids.indexOf(sensor.deviceId)).toBeGreaterThanOrEqual(0);
  });

  it('refuses telemetry while in the trash; a restore brings the device back with its readings and its token', async () => {
    const device = await provision(t, owner, 'sensor');
    expect((await sendTelemetry(t, device.accessToken, { temperature: 4.5 })).statusCode).toBe(202);
    await remove(owner, 'sensor', device.deviceId);
    const refused = await sendTelemetry(t, device.accessToken, { temperature: 5 });
    expect(refused.statusCode).toBe(401);
    expect(await countRows(t, device.deviceId)).toBe(1);

    const stream = await openStream(baseUrl, owner.token);
    const restored = await restore(owner, 'sensor', device.deviceId);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({
      sensor: { id: device.deviceId, serial: device.serial, status: 'online', latest: { temperature: { value: 4.5 } } },
    });
    const event = await stream.waitFor(
      (e) => e.event === 'device' && JSON.parse(e.data).action === 'created' && JSON.parse(e.data).device?.id === device.deviceId,
    );
    expect(JSON.parse(event.data)).toMatchObject({ action: 'created', kind: 'sensor', device: { id: device.deviceId } });
    await stream.close();

    expect(await listIds(owner, 'sensor')).toContain(device.deviceId);
    expect((await trashOf(owner)).map((entry) => entry.id)).not.toContain(device.deviceId);
    const readings = await t.app.inject({ url: `/api/sensor/${device.deviceId}/readings`, headers: owner.auth });
    expect(readings.json()).toMatchObject({ key: 'temperature', readings: [{ avg: 4.5, count: 1 }] });
    expect((await sendTelemetry(t, device.accessToken, { temperature: 6 })).statusCode).toBe(202);
    expect(await countRows(t, device.deviceId)).toBe(2);
  });

  it("refuses a transmitter's readings for a sensor in the trash, and accepts them again once it is restored", async () => {
    const gateway = await provision(t, owner, 'emitter');
    const sensor = await provision(t, owner, 'sensor');
    expect((await sendTelemetry(t, gateway.accessToken, { sensor: sensor.serial, temperature: 3 })).statusCode).toBe(202);
    await remove(owner, 'sensor', sensor.deviceId);
    expect((await sendTelemetry(t, gateway.accessToken, { sensor: sensor.serial, temperature: 4 })).statusCode).toBe(400);
    await restore(owner, 'sensor', sensor.deviceId);
    expect((await sendTelemetry(t, gateway.accessToken, { sensor: sensor.serial, temperature: 5 })).statusCode).toBe(202);
    expect(await countRows(t, sensor.deviceId)).toBe(2);
  });

  it('accepts a restore with an empty JSON body, and a second restore is 404', async () => {
    const device = await provision(t, owner, 'emitter');
    await remove(owner, 'emitter', device.deviceId);
    const first = await restore(owner, 'emitter', device.deviceId, {});
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ emitter: { id: device.deviceId } });
    const second = await restore(owner, 'emitter', device.deviceId);
    expect(second.statusCode).toBe(404);
    expect(second.json()).toEqual({ message: NOT_IN_TRASH });
  });

  it('shows another organization nothing of the trash, and its restore is 404', async () => {
    const device = await provision(t, owner, 'sensor');
    await remove(owner, 'sensor', device.deviceId);
    expect((await trashOf(stranger)).map((entry) => entry.id)).not.toContain(device.deviceId);
    expect(await trashOf(stranger)).toEqual([]);
    const foreign = await restore(stranger, 'sensor', device.deviceId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: NOT_IN_TRASH });
    expect((await trashOf(owner)).map((entry) => entry.id)).toContain(device.deviceId);
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ url: '/api/trash' })).statusCode).toBe(401);
  });

  it('closes the open MQTT session of a device moved to the trash', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await new Promise<mqtt.MqttClient>((resolve, reject) => {
      const c = mqtt.connect(mqttUrl, {
        clientId: device.deviceId,
        username: device.deviceId,
        password: device.accessToken,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      });
      c.once('connect', () => resolve(c));
      c.once('error', reject);
    });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await remove(owner, 'sensor', device.deviceId);
    await closed;
    client.end(true);
  });

  it('provisioning the serial of a trashed device restores it with its history and a new token', async () => {
    const device = await provision(t, owner, 'sensor');
    await sendTelemetry(t, device.accessToken, { temperature: 3 });
    await remove(owner, 'sensor', device.deviceId);
    const again = await provision(t, owner, 'sensor', device.serial);
    expect(again.deviceId).toBe(device.deviceId);
    expect(again.accessToken).not.toBe(device.accessToken);
    expect(await listIds(owner, 'sensor')).toContain(device.deviceId);
    expect((await trashOf(owner)).map((entry) => entry.id)).not.toContain(device.deviceId);
    expect(await countRows(t, device.deviceId)).toBe(1);
    expect((await sendTelemetry(t, again.accessToken, { temperature: 4 })).statusCode).toBe(202);
    expect((await sendTelemetry(t, device.accessToken, { temperature: 4 })).statusCode).toBe(401);
  });
});

describe(`trash purge on ${databaseKind}`, () => {
  let clock = Date.now();
  let t: TestApp;
  let owner: TestAccount;
  // On PostgreSQL, a database of its own: the purge takes every organization's old trash, and a
  // device another suite trashes between two purges on the shared one would be counted here.
  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;

  beforeAll(async () => {
    isolated = await isolatedDatabase();
    t = await createTestApp({ now: () => new Date(clock), ...(isolated ? { env: { DATABASE_URL: isolated.url } } : {}) });
    owner = await t.createAccount();
  });
  afterAll(async () => {
    await t.close();
    await isolated?.drop();
  });

  it('purges a device trashed 31 days ago with its readings, and keeps one trashed 29 days ago', async () => {
    const old = await provision(t, owner, 'sensor');
    const recent = await provision(t, owner, 'emitter');
    await sendTelemetry(t, old.accessToken, { temperature: 1 });
    await sendTelemetry(t, recent.accessToken, { temperature: 2 });
    // The sensor goes to the trash 31 days ago, the transmitter two days later; the purge runs now.
    // (Moving the clock back rather than forward leaves other suites' trash alone on a shared database.)
    const start = Date.now() - 31 * DAY_MS;
    clock = start;
    await t.app.inject({ method: 'DELETE', url: `/api/sensor/${old.deviceId}`, headers: owner.auth });
    clock = start + 2 * DAY_MS;
    await t.app.inject({ method: 'DELETE', url: `/api/emitter/${recent.deviceId}`, headers: owner.auth });

    const later = () => new Date(start + 31 * DAY_MS);
    expect(await purgeTrash(t.app.services, later)).toBeGreaterThanOrEqual(1);
    expect(await countRows(t, old.deviceId)).toBe(0);
    expect(await countRows(t, recent.deviceId)).toBe(1);
    const trash = await t.app.inject({ url: '/api/trash', headers: owner.auth });
    expect(trash.json<{ devices: TrashedDevice[] }>().devices.map((entry) => entry.id)).toEqual([recent.deviceId]);
    // A second run, as another instance would do at the same time, finds nothing more to erase.
    expect(await purgeTrash(t.app.services, later)).toBe(0);
    // Provisioning the purged serial again installs a new device, without the old history.
    const fresh = await provision(t, owner, 'sensor', old.serial);
    expect(fresh.deviceId).not.toBe(old.deviceId);
    const restored = await t.app.inject({ method: 'POST', url: `/api/emitter/${recent.deviceId}/restore`, headers: owner.auth });
    expect(restored.statusCode).toBe(200);
    expect(await countRows(t, recent.deviceId)).toBe(1);
  });
});
