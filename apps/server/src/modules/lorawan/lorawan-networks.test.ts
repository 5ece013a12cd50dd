import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devEui, EM300_FRAME } from '../../test/lorawan-uplinks.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

type NetworkType = 'thingpark' | 'liveobjects' | 'loriot' | 'helium';

interface Uplink {
  fCnt: number;
  at: Date;
  frame?: Buffer;
}

/** An EM300-TH frame with this temperature (the maker's example otherwise: battery 92 %, 50,5 %). */
function em300(celsius: number): Buffer {
  const frame = Buffer.from(EM300_FRAME);
  frame.writeInt16LE(Math.round(celsius * 10), 5);
  return frame;
}

/** Actility ThingPark's `DevEUI_uplink` (JSON), heard by two base stations, the second best. */
function thingparkUplink(eui: string, { fCnt, at, frame = EM300_FRAME }: Uplink) {
  return {
    DevEUI_uplink: {
      Time: at.toISOString().replace('Z', '+00:00'),
      DevEUI: eui.toUpperCase(),
      FPort: 85,
      FCntUp: fCnt,
      ADRbit: 1,
      MType: 2,
      FCntDn: 4,
      payload_hex: frame.toString('hex'),
      mic_hex: '5a1c6e0b',
      Lrcid: '00000201',
      LrrRSSI: -97,
      LrrSNR: 6.25,
      SpFact: 7,
      SubBand: 'G1',
      Channel: 'LC1',
      DevLrrCnt: 2,
      Lrrid: '1000ABCD',
      Late: 0,
      Lrrs: {
        Lrr: [
          { Lrrid: '1000ABCD', Chain: 0, LrrRSSI: -97, LrrSNR: 6.25, LrrESP: -98.1 },
          { Lrrid: '1000ABCE', Chain: 0, LrrRSSI: -71, LrrSNR: 9.5, LrrESP: -71.5 },
        ],
      },
      CustomerID: '100000507',
      CustomerData: { alr: { pro: 'MILESIGHT/EM300TH', ver: '1' } },
      ModelCfg: '0',
      DevAddr: '04A1B2C3',
      TxPower: 14,
      NbTrans: 1,
    },
  };
}

/** The same, every number as text, as older ThingPark connections send it. */
function thingparkUplinkAsText(eui: string, uplink: Uplink) {
  const message = thingparkUplink(eui, uplink).DevEUI_uplink;
  return {
    DevEUI_uplink: {
      ...message,
      FPort: '85',
      FCntUp: String(uplink.fCnt),
      ADRbit: '1',
      LrrRSSI: '-97.000000',
      LrrSNR: '6.250000',
      Lrrs: {
        Lrr: [
          { Lrrid: '1000ABCD', Chain: '0', LrrRSSI: '-97.000000', LrrSNR: '6.250000' },
          { Lrrid: '1000ABCE', Chain: '0', LrrRSSI: '-71.000000', LrrSNR: '9.500000' },
        ],
      },
    },
  };
}

/** Orange Live Objects' data message of a LoRa device, as its HTTP push action posts it. */
function liveObjectsUplink(eui: string, { fCnt, at, frame = EM300_FRAME }: Uplink, lora: object = {}) {
  const upper = eui.toUpperCase();
  return {
    id: `${eui.slice(0, 8)}${fCnt.toString(16).padStart(16, '0')}`,
    streamId: `urn:lo:nsid:lora:${upper}`,
    timestamp: at.toISOString(),
    model: 'lora_v0',
    value: { payload: frame.toString('hex') },
    tags: ['Lyon'],
    extra: {},
    metadata: {
      source: `urn:lo:nsid:lora:${upper}`,
      connector: 'lora',
      network: {
        lora: {
          devEUI: upper,
          port: 85,
          fcnt: fCnt,
          rssi: -71,
          snr: 9.5,
          sf: 7,
          signalLevel: 5,
          gatewayCnt: 2,
          messageType: 'UNCONFIRMED_DATA_UP',
          missingFcnt: 0,
          ...lora,
        },
      },
    },
    created: at.toISOString(),
  };
}

/** Loriot's `gw` message (an `rx` with the gateways that heard it), as its HTTP Push output posts it. */
function loriotUplink(eui: string, { fCnt, at, frame = EM300_FRAME }: Uplink) {
  return {
    cmd: 'gw',
    seqno: 4000 + fCnt,
    EUI: eui.toUpperCase(),
    ts: at.getTime(),
    fcnt: fCnt,
    port: 85,
    freq: 868100000,
    toa: 61,
    dr: 'SF7 BW125 4/5',
    ack: false,
    bat: 255,
    offline: false,
    gws: [
      { rssi: -97, snr: 6.2, ts: at.getTime(), time: at.toISOString(), gweui: 'B827EBFFFE6C2A11', ant: 0, lat: 45.76, lon: 4.83 },
      { rssi: -71, snr: 9.5, ts: at.getTime(), time: at.toISOString(), gweui: 'B827EBFFFE6C2A12', ant: 0, lat: 45.76, lon: 4.83 },
    ],
    data: frame.toString('hex'),
  };
}

/** Helium's uplink, as its console's HTTP integration posts it. */
function heliumUplink(eui: string, { fCnt, at, frame = EM300_FRAME }: Uplink) {
  return {
    type: 'uplink',
    uuid: `0b8f${eui.slice(0, 4)}-0c3c-4d8b-9e0a-${fCnt.toString(16).padStart(12, '0')}`,
    id: '3c4a1c2e-5d6f-4a8b-9c0d-1e2f3a4b5c6d',
    name: 'Chambre froide',
    dev_eui: eui.toUpperCase(),
    app_eui: '24E124C0002A0001',
    devaddr: '48000012',
    fcnt: fCnt,
    port: 85,
    payload: frame.toString('base64'),
    payload_size: frame.length,
    reported_at: at.getTime(),
    replay: false,
    dc: { balance: 9_000, nonce: 1 },
    hotspots: [
      { id: '112qB3YaH5bZkCnKA5uRH7tBtGNv2Y5B4smv1jsmvGUzgKT71QpE', name: 'tangy-purple-duck', rssi: -97, snr: 6.2, status: 'success' },
      { id: '11aB2XVMHbKAtjgLoqb5XkyCUv4ZJpb1rW9aRJoqhtswJ1V2Nni3', name: 'spicy-amber-fox', rssi: -71, snr: 9.5, status: 'success' },
    ],
    metadata: { labels: [], multi_buy: 1, organization_id: '6a2b8f54-7c1d-4e0f-9a3b-2c5d7e9f1a3b' },
  };
}

interface Network {
  type: NetworkType;
  label: string;
  uplink: (eui: string, uplink: Uplink) => object;
  /** The uplink under a DevEUI of these digits (15 or 17). */
  withDevEui: (digits: string) => object;
  /** The uplink with its payload broken, and the field the French reason names. */
  brokenPayload: (eui: string) => object;
  brokenField: RegExp;
  /** Messages answered and not stored. */
  others: (eui: string) => object[];
  /** The best gateway's signal, as the device list shows it. */
  signal: { rssi: number; snr: number; gateway: string | null };
}

const now = () => new Date(Date.now() - 60_000);

const NETWORKS: Network[] = [
  {
    type: 'thingpark',
    label: 'Actility ThingPark',
    uplink: thingparkUplink,
    withDevEui: (digits) => ({ DevEUI_uplink: { ...thingparkUplink(devEui(), { fCnt: 1, at: now() }).DevEUI_uplink, DevEUI: digits } }),
    brokenPayload: (eui) => ({ DevEUI_uplink: { ...thingparkUplink(eui, { fCnt: 1, at: now() }).DevEUI_uplink, payload_hex: '0175zz' } }),
    brokenField: /^« DevEUI_uplink\.payload_hex » doit être la trame en hexadécimal/,
    others: (eui) => [
      { DevEUI_notification: { Time: new Date().toISOString(), DevEUI: eui.toUpperCase(), Type: 'SessionStarted' } },
      { DevEUI_location: { Time: new Date().toISOString(), DevEUI: eui.toUpperCase(), DevLocLat: 45.76, DevLocLon: 4.83 } },
      { DevEUI_downlink_Sent: { Time: new Date().toISOString(), DevEUI: eui.toUpperCase(), FPort: 1 } },
    ],
    signal: { rssi: -71, snr: 9.5, gateway: '1000abce' },
  },
  {
    type: 'liveobjects',
    label: 'Orange Live Objects',
    uplink: (eui, uplink) => liveObjectsUplink(eui, uplink),
    withDevEui: (digits) => liveObjectsUplink(devEui(), { fCnt: 1, at: now() }, { devEUI: digits }),
    brokenPayload: (eui) => ({ ...liveObjectsUplink(eui, { fCnt: 1, at: now() }), value: { payload: '0175z' } }),
    brokenField: /^« value\.payload » doit être la trame en hexadécimal/,
    others: () => [
      {
        streamId: 'urn:lo:nsid:sms:33612345678',
        timestamp: new Date().toISOString(),
        value: { text: 'OK' },
        metadata: { connector: 'sms' },
      },
    ],
    signal: { rssi: -71, snr: 9.5, gateway: null },
  },
  {
    type: 'loriot',
    label: 'Loriot',
    uplink: loriotUplink,
    withDevEui: (digits) => ({ ...loriotUplink(devEui(), { fCnt: 1, at: now() }), EUI: digits }),
    brokenPayload: (eui) => ({ ...loriotUplink(eui, { fCnt: 1, at: now() }), data: '01 75' }),
    brokenField: /^« data » doit être la trame en hexadécimal/,
    others: (eui) => [
      { cmd: 'tx', EUI: eui.toUpperCase(), seqno: 12, data: '0100' },
      { cmd: 'txd', EUI: eui.toUpperCase(), seqno: 13, success: 'Data enqueued' },
    ],
    signal: { rssi: -71, snr: 9.5, gateway: 'b827ebfffe6c2a12' },
  },
  {
    type: 'helium',
    label: 'Helium',
    uplink: heliumUplink,
    withDevEui: (digits) => ({ ...heliumUplink(devEui(), { fCnt: 1, at: now() }), dev_eui: digits }),
    brokenPayload: (eui) => ({ ...heliumUplink(eui, { fCnt: 1, at: now() }), payload: 'AXVc%%' }),
    brokenField: /^« payload » doit être la trame en base64/,
    others: (eui) => [{ type: 'join', dev_eui: eui.toUpperCase(), reported_at: Date.now(), hotspots: [] }],
    signal: { rssi: -71, snr: 9.5, gateway: '11aB2XVMHbKAtjgLoqb5XkyCUv4ZJpb1rW9aRJoqhtswJ1V2Nni3' },
  },
];

/**
 * docs/api.md, LoRaWAN, and docs/protocole-appareils.md, Capteurs LoRaWAN: ThingPark, Live Objects,
 * Loriot and Helium call the integration's address with its secret, as The Things Stack and
 * ChirpStack do; their uplinks are read, stored once, or kept for adoption.
 */
describe(`LoRaWAN networks: ThingPark, Live Objects, Loriot, Helium (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  async function integration(type: NetworkType) {
    const response = await t.app.inject({ method: 'POST', url: '/api/integrations', headers: owner.auth, payload: { type, name: type } });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<{ integration: { id: string; type: string; url: string; secret: string } }>().integration;
    expect(created.type).toBe(type);
    expect(created.url).toMatch(new RegExp(`/api/integrations/${created.id}/events$`));
    return created;
  }
  const send = (target: { id: string }, secret: string | null, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/integrations/${target.id}/events`,
      headers: { ...(secret === null ? {} : { authorization: `Bearer ${secret}` }), ...headers },
      payload: body as object,
    });
  async function register(eui: string) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/devices',
      headers: owner.auth,
      payload: { devEui: eui, codec: 'milesight-em300-th' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ sensor: { id: string } }>().sensor.id;
  }
  /** The sensor's temperatures as a client reads them: one bucket per reading. */
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
  async function device(eui: string) {
    const response = await t.app.inject({ url: '/api/lorawan/devices', headers: owner.auth });
    return response
      .json<{ devices: { devEui: string; rssi: number | null; snr: number | null; gateway: string | null }[] }>()
      .devices.find((entry) => entry.devEui === eui);
  }
  async function health(target: { id: string }, account: TestAccount = owner) {
    const response = await t.app.inject({ url: `/api/integrations/${target.id}/health`, headers: account.auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      health: {
        lastMessageAt: string | null;
        perHour: { hour: string; messages: number; refused: number }[];
        refused: { at: string; reason: string; message: string; devEui: string | null }[];
      };
    }>().health;
  }
  async function pending(eui: string) {
    const response = await t.app.inject({ url: '/api/lorawan/pending', headers: owner.auth });
    return response
      .json<{ devices: { devEui: string; integrationId: string; fPort: number | null; payloadHex: string | null; uplinks: number }[] }>()
      .devices.find((entry) => entry.devEui === eui);
  }

  describe.each(NETWORKS)('$label', (network) => {
    it('refuses a missing or wrong secret with 401 and stores nothing', async () => {
      const target = await integration(network.type);
      const other = await integration(network.type);
      const eui = devEui();
      const sensorId = await register(eui);
      for (const secret of [null, 'vlw_faux', other.secret]) {
        const response = await send(target, secret, network.uplink(eui, { fCnt: 7, at: now() }));
        expect(response.statusCode).toBe(401);
        expect(response.json<{ message: string }>().message).toMatch(/^Secret d’intégration absent ou faux/);
      }
      const stranger = devEui();
      expect((await send(target, 'vlw_faux', network.uplink(stranger, { fCnt: 1, at: now() }))).statusCode).toBe(401);
      expect(await temperatures(sensorId)).toEqual([]);
      expect(await pending(stranger)).toBeUndefined();
      // Still 401 (the sender must learn its secret is wrong), and counted as refused for the integration.
      const listed = await health(target);
      expect(listed.refused.map((entry) => [entry.reason, entry.message])).toEqual([
        ['bad_secret', 'Secret d’intégration faux.'],
        ['bad_secret', 'Secret d’intégration faux.'],
        ['bad_secret', 'Secret d’intégration faux.'],
        ['bad_secret', 'Secret d’intégration absent.'],
      ]);
      expect(listed.perHour.at(-1)).toEqual(expect.objectContaining({ messages: 0, refused: 4 }));
      expect(listed.lastMessageAt).toBeNull();
    });

    it('stores a registered device’s uplink read by its codec, once, with the best gateway’s signal', async () => {
      const target = await integration(network.type);
      const eui = devEui();
      const sensorId = await register(eui);
      const first = network.uplink(eui, { fCnt: 12, at: new Date(Date.now() - 600_000), frame: em300(4.1) });
      expect((await send(target, target.secret, first)).json()).toEqual({ status: 'stored', readings: 1 });
      // The same message again (a retry): stored once.
      expect((await send(target, target.secret, first)).json()).toEqual({ status: 'duplicate', readings: 0, duplicates: 1 });
      // The next frame, another counter and value.
      const next = network.uplink(eui, { fCnt: 13, at: new Date(Date.now() - 60_000), frame: em300(5.3) });
      expect((await send(target, target.secret, next)).json()).toEqual({ status: 'stored', readings: 1 });
      expect((await temperatures(sensorId)).sort()).toEqual([4.1, 5.3]);
      const sensor = (await t.app.inject({ url: `/api/sensor/${sensorId}`, headers: owner.auth })).json<{
        sensor: { latest: Record<string, { value: number }> };
      }>().sensor;
      expect(sensor.latest['humidity']?.value).toBe(50.5);
      expect(sensor.latest['battery']?.value).toBe(92);
      expect(await device(eui)).toMatchObject(network.signal);
    });

    it('answers an unknown DevEUI 200 and lists it for adoption, storing no reading', async () => {
      const target = await integration(network.type);
      const eui = devEui();
      const answer = await send(target, target.secret, network.uplink(eui, { fCnt: 3, at: now() }));
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ status: 'unknown_device', readings: 0 });
      expect((await health(target)).refused).toEqual([
        expect.objectContaining({ reason: 'unknown_device', devEui: eui, message: expect.stringMatching(/^Appareil inconnu/) }),
      ]);
      expect(await pending(eui)).toMatchObject({
        integrationId: target.id,
        fPort: 85,
        payloadHex: EM300_FRAME.toString('hex'),
        uplinks: 1,
      });
    });

    it('answers its other messages without storing them', async () => {
      const target = await integration(network.type);
      const eui = devEui();
      const sensorId = await register(eui);
      for (const message of network.others(eui)) {
        const answer = await send(target, target.secret, message);
        expect(answer.statusCode, JSON.stringify(message)).toBe(200);
        expect(answer.json()).toEqual({ status: 'ignored', readings: 0 });
      }
      expect(await temperatures(sensorId)).toEqual([]);
      expect(await pending(eui)).toBeUndefined();
    });

    it('refuses a broken payload, a DevEUI of 15 or 17 digits and malformed JSON with a 202 and its French reason, storing nothing, listed in its health', async () => {
      const target = await integration(network.type);
      const eui = devEui();
      const sensorId = await register(eui);
      // 202, not 400: a network server stops pushing after a few 4xx, the valid messages with the bad.
      const broken = await send(target, target.secret, network.brokenPayload(eui));
      expect(broken.statusCode).toBe(202);
      expect(broken.json()).toMatchObject({ status: 'refused', readings: 0, reason: 'malformed' });
      expect(broken.json<{ message: string }>().message).toMatch(network.brokenField);
      for (const digits of ['24E124136B50221', '24E124136B5022170']) {
        const answer = await send(target, target.secret, network.withDevEui(digits));
        expect(answer.statusCode).toBe(202);
        expect(answer.json()).toMatchObject({ status: 'refused', readings: 0, reason: 'bad_dev_eui' });
        expect(answer.json<{ message: string }>().message).toMatch(/^DevEUI absent ou invalide dans le message/);
        expect(await pending(digits.toLowerCase())).toBeUndefined();
      }
      const json = JSON.stringify(network.uplink(eui, { fCnt: 1, at: now() }));
      const malformed = await send(target, target.secret, json.slice(0, -2), { 'content-type': 'application/json' });
      expect(malformed.statusCode).toBe(202);
      expect(malformed.json()).toEqual({
        status: 'refused',
        readings: 0,
        reason: 'malformed',
        message: "Le corps de la requête n'est pas un JSON valide.",
      });
      expect(await temperatures(sensorId)).toEqual([]);
      const listed = await health(target);
      expect(listed.refused.map((entry) => entry.reason)).toEqual(['malformed', 'bad_dev_eui', 'bad_dev_eui', 'malformed']);
      expect(listed.refused[0]?.message).toBe("Le corps de la requête n'est pas un JSON valide.");
      expect(listed.refused[3]?.message).toMatch(network.brokenField);
      expect(listed.perHour.at(-1)).toEqual(expect.objectContaining({ messages: 4, refused: 4 }));
      // Nothing valid is lost: the next good message is stored.
      const good = await send(target, target.secret, network.uplink(eui, { fCnt: 2, at: now(), frame: em300(3.3) }));
      expect(good.statusCode).toBe(200);
      expect(good.json()).toEqual({ status: 'stored', readings: 1 });
      expect(await temperatures(sensorId)).toEqual([3.3]);
    });
  });

  it('reads ThingPark’s numbers sent as text, and refuses its XML with a French 415 once the secret is checked', async () => {
    const target = await integration('thingpark');
    const eui = devEui();
    const sensorId = await register(eui);
    const asText = thingparkUplinkAsText(eui, { fCnt: 21, at: now(), frame: em300(3.7) });
    expect((await send(target, target.secret, asText)).json()).toEqual({ status: 'stored', readings: 1 });
    expect((await send(target, target.secret, asText)).json()).toEqual({ status: 'duplicate', readings: 0, duplicates: 1 });
    expect(await device(eui)).toMatchObject({ rssi: -71, snr: 9.5, gateway: '1000abce' });

    const xml = `<?xml version="1.0" encoding="UTF-8"?><DevEUI_uplink xmlns="http://uri.actility.com/lora"><Time>${new Date().toISOString()}</Time><DevEUI>${eui.toUpperCase()}</DevEUI><FPort>85</FPort><FCntUp>22</FCntUp><payload_hex>${em300(8.8).toString('hex')}</payload_hex></DevEUI_uplink>`;
    for (const contentType of ['text/xml', 'application/xml; charset=utf-8']) {
      expect((await send(target, null, xml, { 'content-type': contentType })).statusCode).toBe(401);
      const answer = await send(target, target.secret, xml, { 'content-type': contentType });
      expect(answer.statusCode).toBe(415);
      expect(answer.json<{ message: string }>().message).toMatch(/^ThingPark envoie ici du XML : .*format de contenu JSON/);
    }
    expect(await temperatures(sensorId)).toEqual([3.7]);
  });

  it('takes Live Objects’ DevEUI from its stream when the metadata lacks it', async () => {
    const target = await integration('liveobjects');
    const eui = devEui();
    const sensorId = await register(eui);
    const message = liveObjectsUplink(eui, { fCnt: 5, at: now(), frame: em300(2.2) });
    const { devEUI: _devEui, ...lora } = message.metadata.network.lora;
    const withoutDevEui = { ...message, metadata: { ...message.metadata, network: { lora } } };
    expect((await send(target, target.secret, withoutDevEui)).json()).toEqual({ status: 'stored', readings: 1 });
    expect(await temperatures(sensorId)).toEqual([2.2]);
  });

  it('reads Loriot’s rx message, its signal from the message itself', async () => {
    const target = await integration('loriot');
    const eui = devEui();
    const sensorId = await register(eui);
    const { gws: _gws, ...gw } = loriotUplink(eui, { fCnt: 9, at: now(), frame: em300(6.4) });
    const rx = { ...gw, cmd: 'rx', rssi: -88, snr: 7.25 };
    expect((await send(target, target.secret, rx)).json()).toEqual({ status: 'stored', readings: 1 });
    expect(await temperatures(sensorId)).toEqual([6.4]);
    expect(await device(eui)).toMatchObject({ rssi: -88, snr: 7.25, gateway: null });
  });
});
