import { randomUUID } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, provision, type ProvisionedDevice } from '../../test/device-helpers.ts';
import { startMosquitto, type Mosquitto } from '../../test/mosquitto.ts';
import { createTestApp, databaseKind, tempDir, type TestAccount, type TestApp } from '../../test/test-app.ts';

const topic = (deviceId: string, leaf = 'telemetry') => `vigie/devices/${deviceId}/${leaf}`;

/**
 * Vigie with an external Mosquitto (dynamic-security plugin), both real: devices connect to the
 * broker, never to Vigie, and Vigie keeps their accounts there and consumes their telemetry.
 */
describe(`external MQTT broker (Mosquitto) on ${databaseKind}`, () => {
  let broker: Mosquitto;
  let t: TestApp;
  let owner: TestAccount;
  let brokerUrl: string;
  const dataDir = tempDir();
  const clientId = `vigie-test-${randomUUID().slice(0, 8)}`;
  const clients: MqttClient[] = [];
  const env = () => ({ MQTT_BROKER_URL: broker.url, MQTT_BROKER_CLIENT_ID: clientId, MQTT_BROKER_CONSUMERS: '2' });

  beforeAll(async () => {
    broker = await startMosquitto();
    brokerUrl = `mqtt://127.0.0.1:${broker.port}`;
    t = await createTestApp({ env: env(), dataDir });
    const { mqttUrl } = await t.listen();
    // Devices are told the broker's port.
    expect(mqttUrl).toBe(brokerUrl);
    owner = await t.createAccount();
  });
  afterAll(async () => {
    for (const client of clients) client.end(true);
    await t?.close();
    await broker?.stop();
  });

  const connect = async (device: Pick<ProvisionedDevice, 'deviceId' | 'accessToken'>, options: IClientOptions = {}) => {
    const client = await mqtt.connectAsync(brokerUrl, {
      clientId: device.deviceId,
      username: device.deviceId,
      password: device.accessToken,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...options,
    });
    clients.push(client);
    return client;
  };
  const closed = (client: MqttClient) =>
    new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));

  for (const protocolVersion of [4, 5] as const) {
    it(`stores what an MQTT ${protocolVersion === 4 ? '3.1.1' : '5'} device publishes through the broker, and the device's rights stop at its own topics`, async () => {
      const device = await provision(t, owner, 'sensor');
      const other = await provision(t, owner, 'sensor');
      const client = await connect(device, { protocolVersion });
      await client.publishAsync(topic(device.deviceId), JSON.stringify({ id: 'r1', values: { temperature: 4.2, battery: 80 } }), {
        qos: 1,
      });
      await expect.poll(() => countRows(t, device.deviceId), { timeout: 10_000 }).toBe(2);

      // Another device's topic: refused by the broker (MQTT 5 says so in its PUBACK), nothing stored.
      const refused = client.publishAsync(topic(other.deviceId), JSON.stringify({ values: { temperature: 99 } }), { qos: 1 });
      if (protocolVersion === 5) await expect(refused).rejects.toThrow(/Not authorized/i);
      else await refused;
      await expect(client.subscribeAsync(topic(other.deviceId, 'errors'), { qos: 1 })).rejects.toThrow();
      await client.publishAsync(topic(device.deviceId), JSON.stringify({ values: { temperature: 4.3 } }), { qos: 1 });
      await expect.poll(() => countRows(t, device.deviceId), { timeout: 10_000 }).toBe(3);
      expect(await countRows(t, other.deviceId)).toBe(0);
    });
  }

  it('answers bad payloads on the device’s errors topic, and keeps its connection', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await connect(device, { protocolVersion: 5 });
    await client.subscribeAsync(topic(device.deviceId, 'errors'), { qos: 1 });
    const message = new Promise<string>((resolve) => client.once('message', (_topic, payload) => resolve(payload.toString('utf8'))));
    await client.publishAsync(topic(device.deviceId), '{pas du json', { qos: 1 });
    expect(JSON.parse(await message)).toEqual({ message: "Le message n'est pas un JSON valide : rien n'a été enregistré." });
    const second = new Promise<string>((resolve) => client.once('message', (_topic, payload) => resolve(payload.toString('utf8'))));
    await client.publishAsync(topic(device.deviceId), JSON.stringify({ values: { temperature: 'chaud' } }), { qos: 1 });
    expect(JSON.parse(await second).message).toMatch(/temperature/);
    expect(client.connected).toBe(true);
    expect(await countRows(t, device.deviceId)).toBe(0);
  });

  it('refuses through the broker a value outside its measure’s range or a reserved measure name, in French, storing nothing', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await connect(device, { protocolVersion: 4 });
    await client.subscribeAsync(topic(device.deviceId, 'errors'), { qos: 1 });
    for (const [values, reason] of [
      [{ temperature: 1e200 }, /« temperature » .*−100 à 200 °C/],
      [{ humidity: 120 }, /« humidity » .*0 à 100 %/],
      [{ constructor: 1 }, /nom de mesure « constructor » réservé/],
    ] as const) {
      const message = new Promise<string>((resolve) => client.once('message', (_topic, payload) => resolve(payload.toString('utf8'))));
      await client.publishAsync(topic(device.deviceId), JSON.stringify([{ values: { temperature: 4 } }, { values }]), { qos: 1 });
      expect(JSON.parse(await message).message).toMatch(reason);
    }
    expect(await countRows(t, device.deviceId)).toBe(0);
  });

  it('a renewed token works in the broker at once, and the previous one is refused and its connection closed', async () => {
    const device = await provision(t, owner, 'sensor');
    await expect(connect({ deviceId: device.deviceId, accessToken: 'vdt_faux' })).rejects.toThrow(/Not authorized|Bad user/i);
    // A client id that is not the device's: refused (no device takes over another one's session).
    await expect(connect(device, { clientId: `${randomUUID()}` })).rejects.toThrow(/Not authorized|identifier/i);
    const client = await connect(device);
    const renewed = await t.app.inject({ method: 'POST', url: `/api/sensor/${device.deviceId}/token`, headers: owner.auth });
    expect(renewed.statusCode).toBe(201);
    await closed(client);
    await expect(connect(device)).rejects.toThrow(/Not authorized|Bad user/i);
    const fresh = await connect({ deviceId: device.deviceId, accessToken: renewed.json<{ accessToken: string }>().accessToken });
    await fresh.publishAsync(topic(device.deviceId), JSON.stringify({ values: { temperature: 5 } }), { qos: 1 });
    await expect.poll(() => countRows(t, device.deviceId), { timeout: 10_000 }).toBe(1);
  });

  it('a device in the trash is disconnected and refused; restored, its kept token works again', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await connect(device);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/sensor/${device.deviceId}`, headers: owner.auth })).statusCode).toBe(204);
    await closed(client);
    await expect(connect(device)).rejects.toThrow(/Not authorized|Bad user/i);
    const restored = await t.app.inject({ method: 'POST', url: `/api/sensor/${device.deviceId}/restore`, headers: owner.auth });
    expect(restored.statusCode).toBe(200);
    const again = await connect(device);
    await again.publishAsync(topic(device.deviceId), JSON.stringify({ values: { temperature: 6 } }), { qos: 1 });
    await expect.poll(() => countRows(t, device.deviceId), { timeout: 10_000 }).toBe(1);
  });

  it('readings the broker acknowledged while Vigie was down are stored when it comes back', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await connect(device, { protocolVersion: 5 });
    await t.close();
    for (let i = 0; i < 20; i += 1) {
      await client.publishAsync(topic(device.deviceId), JSON.stringify({ id: `away-${i}`, values: { temperature: i } }), { qos: 1 });
    }
    // The same instance (same client id, same database) starts again: its sessions waited in the broker.
    t = await createTestApp({ env: env(), dataDir });
    await t.listen();
    await expect.poll(() => countRows(t, device.deviceId), { timeout: 15_000 }).toBe(20);
  });
});
