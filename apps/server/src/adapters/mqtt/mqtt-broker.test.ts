import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countRows, provision, type ProvisionedDevice } from '../../test/device-helpers.ts';
import { openStream } from '../../test/sse-client.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';

function connect(
  url: string,
  device: Pick<ProvisionedDevice, 'deviceId' | 'accessToken'>,
  clientId = device.deviceId,
): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, {
      clientId,
      username: device.deviceId,
      password: device.accessToken,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    client.once('connect', () => resolve(client));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}

const topic = (deviceId: string, leaf = 'telemetry') => `vigie/devices/${deviceId}/${leaf}`;

describe(`embedded MQTT broker on ${databaseKind}`, () => {
  let t: TestApp;
  let mqttUrl: string;
  let baseUrl: string;
  let owner: TestAccount;
  let other: TestAccount;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ({ mqttUrl, baseUrl } = await t.listen());
    owner = await t.createAccount();
    other = await t.createAccount();
  });
  afterAll(async () => {
    for (const client of clients) client.end(true);
    await t.close();
  });

  const connected = async (device: ProvisionedDevice, clientId?: string) => {
    const client = await connect(mqttUrl, device, clientId);
    clients.push(client);
    return client;
  };

  it('stores a QoS 1 publish before its PUBACK, and the live stream shows it', async () => {
    const device = await provision(t, owner, 'sensor');
    const stream = await openStream(baseUrl, owner.token);
    const client = await connected(device);
    await client.publishAsync(topic(device.deviceId), JSON.stringify({ id: 'r1', values: { temperature: 3.8, battery: 91 } }), { qos: 1 });
    // PUBACK received: the rows are already committed.
    expect(await countRows(t, device.deviceId)).toBe(2);
    const event = await stream.waitFor((e) => e.event === 'reading' && JSON.parse(e.data).deviceId === device.deviceId);
    expect(JSON.parse(event.data)).toMatchObject({ kind: 'sensor', battery: 91, values: { temperature: { value: 3.8 } } });
    await stream.close();
  });

  it('stores a duplicate delivery (same reading id) once', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await connected(device);
    const payload = JSON.stringify([{ id: 'same', ts: Date.now() - 1000, temperature: 1 }]);
    for (let i = 0; i < 3; i += 1) await client.publishAsync(topic(device.deviceId), payload, { qos: 1 });
    expect(await countRows(t, device.deviceId)).toBe(1);
  });

  it('refuses a wrong or revoked token with CONNACK « not authorized »', async () => {
    const device = await provision(t, owner, 'sensor');
    await expect(connect(mqttUrl, { deviceId: device.deviceId, accessToken: 'vdt_wrong' })).rejects.toThrow(
      /Bad username or password|Not authorized/i,
    );
    const renewed = await t.app.inject({ method: 'POST', url: `/api/sensor/${device.deviceId}/token`, headers: owner.auth });
    expect(renewed.statusCode).toBe(201);
    await expect(connect(mqttUrl, device)).rejects.toThrow(/Bad username or password|Not authorized/i);
    const other = await provision(t, owner, 'sensor');
    // A valid token under another device's id is refused too.
    await expect(connect(mqttUrl, { deviceId: device.deviceId, accessToken: other.accessToken })).rejects.toThrow(
      /Bad username or password/i,
    );
  });

  it('closes the open session of a device whose token is rotated', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await connected(device);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await t.app.inject({ method: 'POST', url: `/api/sensor/${device.deviceId}/token`, headers: owner.auth });
    await closed;
  });

  it('keeps a session opened with the new token when news of the old one arrives late', async () => {
    const device = await provision(t, owner, 'sensor');
    const renewed = await t.app.inject({ method: 'POST', url: `/api/sensor/${device.deviceId}/token`, headers: owner.auth });
    const fresh = await connected(
      { ...device, accessToken: renewed.json<{ accessToken: string }>().accessToken },
      `${device.deviceId}-neuf`,
    );
    // The same news again, as another instance's message through the database may bring it after the reconnection.
    t.app.services.events.publish([{ organizationId: owner.organizationId, type: 'revoked', data: { deviceId: device.deviceId } }]);
    // A message published after the news is stored: the session is still open.
    await fresh.publishAsync(topic(device.deviceId), JSON.stringify({ values: { temperature: 2.5 } }), { qos: 1 });
    expect(await countRows(t, device.deviceId)).toBe(1);
    expect(fresh.connected).toBe(true);
  });

  it("does not let a device take over another device's client id", async () => {
    const victim = await provision(t, owner, 'sensor');
    const attacker = await provision(t, owner, 'sensor');
    const victimClient = await connected(victim);
    await expect(connect(mqttUrl, attacker, victim.deviceId)).rejects.toThrow(/Not authorized/i);
    expect(victimClient.connected).toBe(true);
    // Its own suffixed client id is fine.
    await connected(attacker, `${attacker.deviceId}-2`);
  });

  it("refuses publishing to another device's topic or outside vigie/devices, and keeps nothing", async () => {
    const device = await provision(t, owner, 'sensor');
    const target = await provision(t, owner, 'sensor');
    const client = await connected(device);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(topic(target.deviceId), JSON.stringify({ temperature: 99 }), { qos: 1 });
    await closed;
    expect(await countRows(t, target.deviceId)).toBe(0);
  });

  it('allows subscribing only under its own prefix', async () => {
    const device = await provision(t, owner, 'sensor');
    const neighbour = await provision(t, owner, 'sensor');
    const client = await connected(device);
    const own = await client.subscribeAsync(`vigie/devices/${device.deviceId}/#`, { qos: 1 });
    expect(own[0]?.qos).toBe(1);
    for (const filter of [`vigie/devices/${neighbour.deviceId}/#`, 'vigie/#', '#', '$SYS/#']) {
      // SUBACK 0x80: refused, which mqtt.js reports as a subscribe error; the connection stays.
      await expect(client.subscribeAsync(filter, { qos: 1 }), filter).rejects.toThrow(/Subscribe error/);
    }
    expect(client.connected).toBe(true);
  });

  it('answers bad payloads on the errors topic, stores nothing and keeps the connection', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await connected(device);
    await client.subscribeAsync(topic(device.deviceId, 'errors'), { qos: 0 });
    const messages: string[] = [];
    client.on('message', (_, payload) => messages.push(payload.toString()));
    for (const bad of [
      '{nope',
      JSON.stringify({ temperature: 'chaud' }),
      JSON.stringify(Array.from({ length: 10_000 }, () => ({ t: 1 }))),
      JSON.stringify({ ts: Date.now() + 86_400_000, t: 1 }),
    ]) {
      await client.publishAsync(topic(device.deviceId), bad, { qos: 1 });
    }
    await vi.waitFor(() => expect(messages).toHaveLength(4), { timeout: 5_000, interval: 20 });
    expect(messages.map((m) => JSON.parse(m).message).join('\n')).toMatch(/JSON valide[\s\S]*nombre fini[\s\S]*au plus[\s\S]*futur/);
    expect(await countRows(t, device.deviceId)).toBe(0);
    expect(client.connected).toBe(true);
    await client.publishAsync(topic(device.deviceId), JSON.stringify({ temperature: 4 }), { qos: 1 });
    expect(await countRows(t, device.deviceId)).toBe(1);
  });

  it('lets a transmitter publish for its sensors', async () => {
    const gateway = await provision(t, owner, 'emitter');
    const sensor = await provision(t, owner, 'sensor');
    const client = await connected(gateway);
    await client.publishAsync(topic(gateway.deviceId), JSON.stringify([{ sensor: sensor.serial, temperature: -18 }]), { qos: 1 });
    expect(await countRows(t, sensor.deviceId)).toBe(1);
  });

  it("never streams another organization's events", async () => {
    const mine = await openStream(baseUrl, owner.token);
    const theirs = await openStream(baseUrl, other.token);
    const device = await provision(t, other, 'sensor');
    const client = await connected(device);
    await client.publishAsync(topic(device.deviceId), JSON.stringify({ temperature: 7 }), { qos: 1 });
    await theirs.waitFor((e) => e.event === 'reading' && JSON.parse(e.data).deviceId === device.deviceId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mine.events.some((e) => e.data.includes(device.deviceId))).toBe(false);
    await mine.close();
    await theirs.close();
  });
});
