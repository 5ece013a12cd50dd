import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devEui, EM300_FRAME, ttsUplink } from '../../test/lorawan-uplinks.ts';
import { setRole } from '../../test/test-dal.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';

interface Health {
  lastMessageAt: string | null;
  perHour: { hour: string; messages: number; refused: number }[];
  refused: { at: string; reason: string; message: string; devEui: string | null }[];
}

/** An EM300-TH frame with this temperature. */
function em300(celsius: number): Buffer<ArrayBufferLike> {
  const frame = Buffer.from(EM300_FRAME);
  frame.writeInt16LE(Math.round(celsius * 10), 5);
  return frame;
}

/** Loriot's `rx` message, as its HTTP Push output posts it. */
function loriotUplink(eui: string, { fCnt, frame = EM300_FRAME, at = new Date() }: { fCnt: number; frame?: Buffer; at?: Date }) {
  return {
    cmd: 'rx',
    seqno: 4000 + fCnt,
    EUI: eui.toUpperCase(),
    ts: at.getTime(),
    fcnt: fCnt,
    port: 85,
    rssi: -88,
    snr: 7.25,
    data: frame.toString('hex'),
  };
}

/** Each network's bad inputs: the message, and the reason the answer and the health give. */
const NETWORKS = [
  {
    type: 'tts' as const,
    uplink: (eui: string, fCnt: number, frame: Buffer<ArrayBufferLike> = EM300_FRAME, at = new Date()) =>
      ttsUplink(eui, { fCnt, frame, receivedAt: at, devAddr: `26${eui.slice(-6)}` }),
    rejoined: (eui: string, fCnt: number, frame: Buffer<ArrayBufferLike>) => ttsUplink(eui, { fCnt, frame, devAddr: `27${eui.slice(-6)}` }),
    brokenPayload: (eui: string) => {
      const message = ttsUplink(eui, { fCnt: 3 });
      return { ...message, uplink_message: { ...message.uplink_message, frm_payload: 'AXVc%%' } };
    },
    withDevEui: (digits: string) => {
      const message = ttsUplink(devEui(), { fCnt: 3 });
      return { ...message, end_device_ids: { ...message.end_device_ids, dev_eui: digits } };
    },
  },
  {
    type: 'loriot' as const,
    uplink: (eui: string, fCnt: number, frame: Buffer<ArrayBufferLike> = EM300_FRAME, at = new Date()) =>
      loriotUplink(eui, { fCnt, frame, at }),
    rejoined: (eui: string, fCnt: number, frame: Buffer<ArrayBufferLike>) => loriotUplink(eui, { fCnt, frame }),
    brokenPayload: (eui: string) => ({ ...loriotUplink(eui, { fCnt: 3 }), data: '01 75' }),
    withDevEui: (digits: string) => ({ ...loriotUplink(devEui(), { fCnt: 3 }), EUI: digits }),
  },
];

/**
 * docs/api.md, Santé d'une intégration: a message whose content is wrong is answered 202 with its
 * reason (a network server stops pushing after a few 4xx), nothing stored, listed in the
 * integration's health with its messages hour by hour; a wrong secret stays 401, counted too.
 */
describe(`LoRaWAN integration health (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let viewer: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    const organization = `Chaîne ${randomUUID()}`;
    owner = await t.createAccount({ organization });
    viewer = await t.createAccount({ organization });
    await setRole(t, viewer.id, 'viewer');
    stranger = await t.createAccount();
  });
  afterAll(() => t.close());

  async function integration(type: 'tts' | 'loriot', account = owner) {
    const response = await t.app.inject({ method: 'POST', url: '/api/integrations', headers: account.auth, payload: { type, name: type } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ integration: { id: string; secret: string } }>().integration;
  }
  const send = (target: { id: string }, secret: string | null, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/integrations/${target.id}/events`,
      headers: { ...(secret === null ? {} : { authorization: `Bearer ${secret}` }), ...headers },
      payload: body as object,
    });
  async function register(eui: string, codec = 'milesight-em300-th') {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/devices',
      headers: owner.auth,
      payload: { devEui: eui, codec },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ sensor: { id: string } }>().sensor.id;
  }
  async function temperatures(sensorId: string): Promise<number[]> {
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const response = await t.app.inject({
      url: `/api/sensor/${sensorId}/readings?key=temperature&from=${from}&to=${to}&buckets=2000`,
      headers: owner.auth,
    });
    expect(response.statusCode).toBe(200);
    return response
      .json<{ readings: { count: number; avg: number }[] }>()
      .readings.filter((bucket) => bucket.count > 0)
      .flatMap((bucket) => Array.from({ length: bucket.count }, () => bucket.avg));
  }
  async function health(target: { id: string }, account = owner) {
    const response = await t.app.inject({ url: `/api/integrations/${target.id}/health`, headers: account.auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ health: Health }>().health;
  }

  describe.each(NETWORKS)('$type', (network) => {
    it('answers each bad input 202 with its reason, stores nothing, lists it in the health, then stores a good message', async () => {
      const target = await integration(network.type);
      const eui = devEui();
      const sensorId = await register(eui);

      const wrongSecret = await send(target, 'vlw_faux', network.uplink(eui, 1));
      expect(wrongSecret.statusCode).toBe(401);
      expect(wrongSecret.json<{ message: string }>().message).toMatch(/^Secret d’intégration absent ou faux/);

      const json = JSON.stringify(network.uplink(eui, 2));
      const bad: [unknown, Record<string, string>, string, RegExp][] = [
        [json.slice(0, -3), { 'content-type': 'application/json' }, 'malformed', /^Le corps de la requête n'est pas un JSON valide\.$/],
        ['', { 'content-type': 'application/json' }, 'malformed', /^Le corps de la requête est vide/],
        [network.brokenPayload(eui), {}, 'malformed', /doit être la trame en (base64|hexadécimal)/],
        [network.withDevEui('24E124136B50221'), {}, 'bad_dev_eui', /^DevEUI absent ou invalide/],
        [network.withDevEui('24E124136B5022170'), {}, 'bad_dev_eui', /^DevEUI absent ou invalide/],
      ];
      for (const [body, headers, reason, message] of bad) {
        const answer = await send(target, target.secret, body, headers);
        expect(answer.statusCode, reason).toBe(202);
        expect(answer.json()).toEqual({ status: 'refused', readings: 0, reason, message: expect.stringMatching(message) });
      }
      // A device not registered: kept for adoption as before (200), listed with its DevEUI.
      const unknown = devEui();
      expect((await send(target, target.secret, network.uplink(unknown, 1))).json()).toEqual({ status: 'unknown_device', readings: 0 });
      // A frame its codec cannot read: answered as before (200, the device's page says why), listed.
      const undecodable = await send(target, target.secret, network.uplink(eui, 4, Buffer.from('03', 'hex')));
      expect(undecodable.json()).toEqual({ status: 'undecoded', readings: 0 });
      expect(await temperatures(sensorId)).toEqual([]);

      const listed = await health(target);
      expect(listed.refused.map((entry) => entry.reason)).toEqual([
        'undecodable',
        'unknown_device',
        'bad_dev_eui',
        'bad_dev_eui',
        'malformed',
        'malformed',
        'malformed',
        'bad_secret',
      ]);
      expect(listed.refused[0]).toMatchObject({ devEui: eui, message: expect.stringMatching(/^Trame illisible par son décodeur : /) });
      expect(listed.refused[1]).toMatchObject({ devEui: unknown });
      expect(listed.refused.every((entry) => /^[A-ZÀ-Ý«]/.test(entry.message) && !Number.isNaN(Date.parse(entry.at)))).toBe(true);
      expect(listed.perHour).toHaveLength(24);
      // Every message with the right secret is counted; the refused ones, the wrong secret's call included, apart.
      expect(listed.perHour.at(-1)).toMatchObject({ messages: 7, refused: 8 });
      expect(listed.perHour.slice(0, -1).every((hour) => hour.messages === 0 && hour.refused === 0)).toBe(true);
      expect(Date.parse(listed.lastMessageAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

      // Nothing valid is lost: the next good message is stored, once; counted, not listed.
      const good = network.uplink(eui, 10, em300(4.2), new Date(Date.now() - 600_000));
      expect((await send(target, target.secret, good)).json()).toEqual({ status: 'stored', readings: 1 });
      expect((await send(target, target.secret, good)).json()).toEqual({ status: 'duplicate', readings: 0, duplicates: 1 });
      // A device that joined again starts its counter over: its frames are stored, not taken for the old ones.
      expect((await send(target, target.secret, network.rejoined(eui, 1, em300(4.6)))).json()).toEqual({ status: 'stored', readings: 1 });
      expect((await temperatures(sensorId)).sort()).toEqual([4.2, 4.6]);
      const after = await health(target);
      expect(after.refused).toHaveLength(8);
      expect(after.perHour.at(-1)).toMatchObject({ messages: 10, refused: 8 });

      // Another organization does not find it; a viewer may not read it.
      const theirs = await t.app.inject({ url: `/api/integrations/${target.id}/health`, headers: stranger.auth });
      expect(theirs.statusCode).toBe(404);
      expect(JSON.stringify(theirs.json())).not.toContain(eui);
      expect((await t.app.inject({ url: `/api/integrations/${target.id}/health`, headers: viewer.auth })).statusCode).toBe(403);
    });
  });

  it('keeps the last 50 refused messages of an integration, and none of another’s', async () => {
    const target = await integration('tts');
    const other = await integration('tts');
    await send(other, 'vlw_faux', ttsUplink(devEui()));
    for (let index = 0; index < 65; index += 1) {
      const answer = await send(target, target.secret, ['pas', 'un', 'message', index]);
      expect(answer.statusCode).toBe(202);
    }
    const listed = await health(target);
    expect(listed.refused).toHaveLength(50);
    expect(listed.refused.every((entry) => entry.reason === 'malformed')).toBe(true);
    expect(listed.perHour.at(-1)).toMatchObject({ messages: 65, refused: 65 });
    expect((await health(other)).refused.map((entry) => entry.reason)).toEqual(['bad_secret']);
  });
});
