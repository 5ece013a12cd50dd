import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, countRows, provision } from '../../test/device-helpers.ts';
import { storedReadingIds } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

/** A batch written by hand: JSON.stringify could not even express the ids as the device typed them. */
const batch = (ids: string[]) => `[${ids.map((id, i) => `{"id":${id},"values":{"temperature":${4 + i}}}`).join(',')}]`;

// Four distinct integers a double cannot tell apart two by two (2^53 + 1 reads as 2^53, 2^53 + 3 as 2^53 + 4).
const BEYOND_DOUBLE = ['9007199254740992', '9007199254740993', '9007199254740994', '9007199254740995'];

/** A reading id is the device's promise that a retry is stored once: two distinct ids must never become one. */
describe(`reading ids (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let baseUrl: string;
  let mqttUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ baseUrl, mqttUrl } = await t.listen());
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  const post = (token: string, body: string) =>
    fetch(`${baseUrl}/api/devices/telemetry`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  it('refuses over HTTP a numeric id a double cannot hold exactly, in French, and stores nothing of the batch', async () => {
    const device = await provision(t, owner, 'sensor');
    for (const ids of [BEYOND_DOUBLE, ['1', '-9007199254740993'], ['1e300'], ['1.5']]) {
      const response = await post(device.accessToken, batch(ids));
      expect(response.status, ids.join()).toBe(400);
      const { message } = (await response.json()) as { message: string };
      expect(message).toMatch(/^Lecture n° \d : identifiant « id » /);
      expect(message).toContain('en chaîne');
    }
    expect(await countRows(t, device.deviceId)).toBe(0);
  });

  it('keeps every integer id up to 2^53 − 1 apart, and a larger one sent as a string, exactly', async () => {
    const device = await provision(t, owner, 'sensor');
    const ids = ['9007199254740991', '9007199254740990', '-9007199254740991', '"9007199254740993"', '"9007199254740992"'];
    const response = await post(device.accessToken, batch(ids));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 5 });
    expect(await storedReadingIds(t, device.deviceId)).toEqual(
      ['-9007199254740991', '9007199254740990', '9007199254740991', '9007199254740992', '9007199254740993'].sort(),
    );
    // A retry of the same batch is still stored once.
    expect((await post(device.accessToken, batch(ids))).status).toBe(202);
    expect(await countRows(t, device.deviceId)).toBe(5);
  });

  it('refuses it over MQTT on the errors topic, acknowledged and with nothing stored', async () => {
    const device = await provision(t, owner, 'sensor');
    const client = await connectDevice(mqttUrl, device);
    const errors: string[] = [];
    client.on('message', (_topic, payload) => errors.push(payload.toString('utf8')));
    await client.subscribeAsync(`vigie/devices/${device.deviceId}/errors`, { qos: 0 });
    await client.publishAsync(`vigie/devices/${device.deviceId}/telemetry`, batch(BEYOND_DOUBLE), { qos: 1 });
    for (let i = 0; i < 50 && errors.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(JSON.parse(errors[0] ?? '{}')).toMatchObject({ message: expect.stringContaining('identifiant « id »') as unknown });
    expect(await countRows(t, device.deviceId)).toBe(0);
    await client.endAsync();
  });
});
