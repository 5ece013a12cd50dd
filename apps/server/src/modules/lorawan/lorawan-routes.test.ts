import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devEui, EM300_FRAME, ttsUplink } from '../../test/lorawan-uplinks.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';

interface Integration {
  id: string;
  type: string;
  name: string;
  url: string;
  secret?: string;
  lastEventAt: string | null;
}

/** ChirpStack v4's HTTP integration, JSON encoding, `?event=up`. */
function chirpstackUp(eui: string, fCnt: number, frame = EM300_FRAME) {
  return {
    deduplicationId: '3d5a4bd8-6a0b-4a73-9d1f-25c1a6b1f0d2',
    time: new Date().toISOString(),
    deviceInfo: {
      tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
      tenantName: 'ChirpStack',
      applicationId: '17c82e96-be03-4f38-aef3-f83d48582d97',
      applicationName: 'Magasin',
      deviceProfileName: 'EM300-TH',
      deviceName: 'Chambre froide',
      devEui: eui,
    },
    devAddr: '01fa3b2c',
    adr: true,
    dr: 5,
    fCnt,
    fPort: 85,
    confirmed: false,
    data: frame.toString('base64'),
    rxInfo: [{ gatewayId: '0016c001f153a14c', uplinkId: 4217106255, rssi: -80, snr: 7.5 }],
  };
}

describe(`LoRaWAN integrations (docs/api.md, LoRaWAN) on ${databaseKind}`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
    stranger = await t.createAccount();
  });
  afterAll(() => t.close());

  async function integration(account: TestAccount, type: 'tts' | 'chirpstack'): Promise<Integration & { secret: string }> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/integrations',
      headers: account.auth,
      payload: { type, name: `Réseau ${type}` },
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ integration: Integration & { secret: string } }>().integration;
  }

  const send = (target: Integration, secret: string | null, body: unknown, event?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/integrations/${target.id}/events${event ? `?event=${event}` : ''}`,
      headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
      payload: body as object,
    });

  async function register(eui: string, codec = 'milesight-em300-th', extra: object = {}) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/devices',
      headers: owner.auth,
      payload: { devEui: eui, codec, ...extra },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ sensor: { id: string; name: string; serial: string; model: string } }>().sensor;
  }

  const sensorOf = async (id: string) =>
    (await t.app.inject({ url: `/api/sensor/${id}`, headers: owner.auth })).json<{
      sensor: { latest: Record<string, { value: number; ts: string }>; battery: number | null };
    }>().sensor;

  async function stored(sensorId: string, key = 'temperature'): Promise<{ ts: string; count: number }[]> {
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const response = await t.app.inject({
      url: `/api/sensor/${sensorId}/readings?key=${key}&from=${from}&to=${to}&buckets=2000`,
      headers: owner.auth,
    });
    return response.json<{ readings: { ts: string; count: number }[] }>().readings;
  }

  it('creates an integration with its address and a secret shown once, listed without it', async () => {
    const created = await integration(owner, 'tts');
    expect(created).toMatchObject({ type: 'tts', name: 'Réseau tts', lastEventAt: null });
    expect(created.url).toMatch(new RegExp(`^https?://[^/]+/api/integrations/${created.id}/events$`));
    expect(created.secret.length).toBeGreaterThanOrEqual(32);
    const list = (await t.app.inject({ url: '/api/integrations', headers: owner.auth })).json<{ integrations: Integration[] }>()
      .integrations;
    expect(list.find((entry) => entry.id === created.id)).toEqual({ ...created, secret: undefined });
    expect(JSON.stringify(list)).not.toContain(created.secret);
    // Another organization neither sees nor deletes it.
    const theirs = (await t.app.inject({ url: '/api/integrations', headers: stranger.auth })).json<{ integrations: Integration[] }>()
      .integrations;
    expect(theirs.map((entry) => entry.id)).not.toContain(created.id);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/integrations/${created.id}`, headers: stranger.auth })).statusCode).toBe(404);
  });

  it('refuses a missing or wrong secret, and another organization’s, with 401 and stores nothing', async () => {
    const mine = await integration(owner, 'tts');
    const theirs = await integration(stranger, 'tts');
    const eui = devEui();
    const sensor = await register(eui);
    for (const secret of [null, 'vlw_faux', theirs.secret]) {
      const response = await send(mine, secret, ttsUplink(eui));
      expect(response.statusCode).toBe(401);
      expect(response.json<{ message: string }>().message).toMatch(/^Secret d’intégration absent ou faux/);
    }
    expect(await stored(sensor.id)).toEqual([]);
    const pending = (await t.app.inject({ url: '/api/lorawan/pending', headers: stranger.auth })).json<{ devices: { devEui: string }[] }>()
      .devices;
    expect(pending.map((entry) => entry.devEui)).not.toContain(eui);
  });

  it('keeps an unknown DevEUI for adoption with the suggested codec, then stores its uplinks once registered', async () => {
    const tts = await integration(owner, 'tts');
    const eui = devEui();
    const versionIds = {
      brand_id: 'milesight-iot',
      model_id: 'em300-th',
      hardware_version: '1.0',
      firmware_version: '1.1',
      band_id: 'EU_863_870',
    };
    const first = await send(tts, tts.secret, ttsUplink(eui, { fCnt: 7, versionIds }));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'unknown_device', readings: 0 });
    await send(tts, tts.secret, ttsUplink(eui, { fCnt: 8, versionIds }));
    const pending = (await t.app.inject({ url: '/api/lorawan/pending', headers: owner.auth })).json<{ devices: object[] }>().devices;
    expect(pending).toContainEqual(
      expect.objectContaining({
        devEui: eui,
        integrationId: tts.id,
        uplinks: 2,
        brand: 'milesight-iot',
        model: 'em300-th',
        suggestedCodec: 'milesight-em300-th',
        fPort: 85,
        payloadHex: EM300_FRAME.toString('hex'),
      }),
    );

    const sensor = await register(eui.toUpperCase().replace(/(..)(?!$)/g, '$1-'), 'milesight-em300-th', { name: 'Chambre froide' });
    expect(sensor).toMatchObject({ name: 'Chambre froide', serial: eui, model: 'Milesight EM300-TH' });
    const after = (await t.app.inject({ url: '/api/lorawan/pending', headers: owner.auth })).json<{ devices: { devEui: string }[] }>()
      .devices;
    expect(after.map((entry) => entry.devEui)).not.toContain(eui);

    const answer = await send(tts, tts.secret, ttsUplink(eui, { fCnt: 9 }));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ status: 'stored', readings: 1 });
    const seen = await sensorOf(sensor.id);
    expect(seen.latest['temperature']?.value).toBe(30.8);
    expect(seen.latest['humidity']?.value).toBe(50.5);
    expect(seen.battery).toBe(92);
    const devices = (await t.app.inject({ url: '/api/lorawan/devices', headers: owner.auth })).json<{ devices: object[] }>().devices;
    // The strongest of the two gateways that heard it.
    expect(devices).toContainEqual(
      expect.objectContaining({
        devEui: eui,
        sensorId: sensor.id,
        codec: 'milesight-em300-th',
        rssi: -71,
        snr: 9.5,
        gateway: 'b827ebfffe6c2a12',
        lastError: null,
      }),
    );
    const listed = (await t.app.inject({ url: '/api/integrations', headers: owner.auth })).json<{ integrations: Integration[] }>()
      .integrations;
    expect(listed.find((entry) => entry.id === tts.id)?.lastEventAt).not.toBeNull();
  });

  it('stores the same frame once (retries, several gateways), and a late frame at its own time', async () => {
    const tts = await integration(owner, 'tts');
    const eui = devEui();
    const sensor = await register(eui);
    const late = new Date(Date.now() - 3 * 3_600_000);
    for (let i = 0; i < 3; i += 1) expect((await send(tts, tts.secret, ttsUplink(eui, { fCnt: 41 }))).statusCode).toBe(200);
    expect((await send(tts, tts.secret, ttsUplink(eui, { fCnt: 40, receivedAt: late }))).statusCode).toBe(200);
    const readings = await stored(sensor.id);
    expect(readings.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(2);
    expect(Math.min(...readings.map((bucket) => Date.parse(bucket.ts)))).toBeLessThanOrEqual(late.getTime());
    // A new session (another device address) counts its frames afresh: frame 41 there is a new frame.
    expect((await send(tts, tts.secret, ttsUplink(eui, { fCnt: 41, devAddr: '260B9999' }))).json()).toEqual({
      status: 'stored',
      readings: 1,
    });
    expect((await stored(sensor.id)).reduce((sum, bucket) => sum + bucket.count, 0)).toBe(3);
  });

  it('shows the gateway that heard a frame as a transmitter in the sensor’s shop, the sensor reporting through it', async () => {
    const site = (
      await t.app.inject({ method: 'POST', url: '/api/sites', headers: owner.auth, payload: { name: 'Magasin de Brest' } })
    ).json<{ site: { id: string } }>().site;
    const chirpstack = await integration(owner, 'chirpstack');
    const eui = devEui();
    const gateway = devEui();
    const sensor = await register(eui, 'milesight-em300-th', { siteId: site.id });
    const frame = (fCnt: number) => ({ ...chirpstackUp(eui, fCnt), rxInfo: [{ gatewayId: gateway.toUpperCase(), rssi: -90, snr: 4 }] });
    expect((await send(chirpstack, chirpstack.secret, frame(1), 'up')).json()).toEqual({ status: 'stored', readings: 1 });
    expect((await send(chirpstack, chirpstack.secret, frame(2), 'up')).json()).toEqual({ status: 'stored', readings: 1 });

    type Emitter = {
      id: string;
      name: string;
      serial: string;
      model: string;
      siteId: string;
      status: string;
      inactivityTimeoutSeconds: number;
    };
    const emitters = (await t.app.inject({ url: '/api/emitter', headers: owner.auth })).json<{ emitters: Emitter[] }>().emitters;
    const transmitters = emitters.filter((entry) => entry.serial === gateway);
    expect(transmitters).toHaveLength(1);
    expect(transmitters[0]).toMatchObject({
      name: `Passerelle ${gateway.slice(-6)}`,
      model: 'Passerelle LoRaWAN',
      siteId: site.id,
      status: 'online',
      inactivityTimeoutSeconds: 1800,
    });
    const seen = (await t.app.inject({ url: `/api/sensor/${sensor.id}`, headers: owner.auth })).json<{
      sensor: { emitterId: string | null; latest: Record<string, { value: number }> };
    }>().sensor;
    expect(seen.emitterId).toBe(transmitters[0]?.id);
    expect(seen.latest['temperature']?.value).toBe(30.8);
    // Another organization's frames through a gateway of the same EUI make its own transmitter.
    const elsewhere = (await t.app.inject({ url: '/api/emitter', headers: stranger.auth })).json<{ emitters: Emitter[] }>().emitters;
    expect(elsewhere.map((entry) => entry.serial)).not.toContain(gateway);
  });

  it('names a door contact’s measure `door`, and a « Porte » use watches it', async () => {
    const tts = await integration(owner, 'tts');
    const eui = devEui();
    const sensor = await register(eui, 'milesight-em300-mcs', { preset: 'door' });
    const rules = (await t.app.inject({ url: `/api/alert-rules?sensorId=${sensor.id}`, headers: owner.auth })).json<{
      rules: { condition: { type: string; key?: string; threshold?: number }; delaySeconds: number }[];
    }>().rules;
    expect(rules).toEqual([expect.objectContaining({ condition: { type: 'above', key: 'door', threshold: 0.5 }, delaySeconds: 300 })]);
    // EM300-MCS: battery 92 %, 30,8 °C, 50,5 %, the door open (channel 06 00).
    const frame = Buffer.from('01755c03673401046865060001', 'hex');
    expect((await send(tts, tts.secret, ttsUplink(eui, { fCnt: 3, frame }))).json()).toEqual({
      status: 'stored',
      readings: 1,
    });
    expect((await sensorOf(sensor.id)).latest['door']?.value).toBe(1);
  });

  it('takes ChirpStack’s up and status events, answers its other events, and asks for the event it forgot', async () => {
    const chirpstack = await integration(owner, 'chirpstack');
    expect(chirpstack.url).toMatch(/\/events$/);
    const eui = devEui();
    const sensor = await register(eui);
    const up = await send(chirpstack, chirpstack.secret, chirpstackUp(eui, 3), 'up');
    expect(up.json()).toEqual({ status: 'stored', readings: 1 });
    expect((await sensorOf(sensor.id)).latest['temperature']?.value).toBe(30.8);
    const status = await send(
      chirpstack,
      chirpstack.secret,
      {
        deduplicationId: 'x',
        time: new Date().toISOString(),
        deviceInfo: { devEui: eui },
        margin: 7,
        externalPowerSource: false,
        batteryLevel: 61.5,
      },
      'status',
    );
    expect(status.json()).toEqual({ status: 'stored', readings: 1 });
    expect((await sensorOf(sensor.id)).battery).toBe(61.5);
    for (const event of ['join', 'ack', 'txack', 'log', 'location', 'integration']) {
      const answer = await send(chirpstack, chirpstack.secret, { time: new Date().toISOString(), deviceInfo: { devEui: eui } }, event);
      expect(answer.statusCode, event).toBe(200);
      expect(answer.json()).toEqual({ status: 'ignored', readings: 0 });
    }
    const forgot = await send(chirpstack, chirpstack.secret, chirpstackUp(eui, 4));
    expect(forgot.statusCode).toBe(202);
    expect(forgot.json()).toMatchObject({ status: 'refused', readings: 0, reason: 'malformed' });
    expect(forgot.json<{ message: string }>().message).toMatch(/^Paramètre « event » manquant/);
  });

  it('answers The Things Stack’s other messages, and refuses what is not a message with a French reason, storing nothing', async () => {
    const tts = await integration(owner, 'tts');
    const eui = devEui();
    const sensor = await register(eui);
    const ids = { device_id: `eui-${eui}`, dev_eui: eui.toUpperCase(), application_ids: { application_id: 'magasin' } };
    for (const message of [
      { join_accept: { session_key_id: 'AY' } },
      { downlink_ack: {} },
      { downlink_queued: {} },
      { location_solved: {} },
    ]) {
      const answer = await send(tts, tts.secret, { end_device_ids: ids, received_at: new Date().toISOString(), ...message });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ status: 'ignored', readings: 0 });
    }
    const bad = [
      [['pas', 'un', 'objet'], /^Le message doit être un objet JSON/, 'malformed'],
      [{ ...ttsUplink(eui), end_device_ids: { device_id: 'x' } }, /^DevEUI absent ou invalide/, 'bad_dev_eui'],
      [{ ...ttsUplink(eui), uplink_message: { ...ttsUplink(eui).uplink_message, frm_payload: '%%%' } }, /frm_payload/, 'malformed'],
    ] as const;
    for (const [body, message, reason] of bad) {
      const answer = await send(tts, tts.secret, body);
      expect(answer.statusCode).toBe(202);
      expect(answer.json()).toMatchObject({ status: 'refused', readings: 0, reason });
      expect(answer.json<{ message: string }>().message).toMatch(message);
    }
    expect(await stored(sensor.id)).toEqual([]);
  });

  it('notes a frame its codec cannot read on the device, in French, and stores nothing from it', async () => {
    const tts = await integration(owner, 'tts');
    const eui = devEui();
    const sensor = await register(eui);
    const answer = await send(tts, tts.secret, ttsUplink(eui, { frame: Buffer.from('03', 'hex') }));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ status: 'undecoded', readings: 0 });
    const devices = (await t.app.inject({ url: '/api/lorawan/devices', headers: owner.auth })).json<{
      devices: { devEui: string; lastError: string | null }[];
    }>().devices;
    const error = devices.find((entry) => entry.devEui === eui)?.lastError;
    expect(error).toMatch(/^[A-ZÀ-Ý].+\.$/);
    expect(await stored(sensor.id)).toEqual([]);
  });

  it('registers a device once, with a French reason for a wrong DevEUI or codec, and its rule from its use', async () => {
    const wrong = [
      [{ devEui: '24E124', codec: 'milesight-em300-th' }, /^Le DevEUI compte 16 chiffres hexadécimaux/],
      [{ devEui: devEui(), codec: 'inconnu-x1' }, /^Décodeur inconnu « inconnu-x1 »/],
    ] as const;
    for (const [payload, message] of wrong) {
      const answer = await t.app.inject({ method: 'POST', url: '/api/lorawan/devices', headers: owner.auth, payload });
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ message: string }>().message).toMatch(message);
    }
    const eui = devEui();
    const sensor = await register(eui, 'milesight-em300-th', { preset: 'chilled_perishable' });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/devices',
      headers: owner.auth,
      payload: { devEui: eui, codec: 'milesight-em300-th' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toMatch(/^Ce DevEUI est déjà enregistré/);
    const rules = (await t.app.inject({ url: `/api/alert-rules?sensorId=${sensor.id}`, headers: owner.auth })).json<{ rules: object[] }>()
      .rules;
    expect(rules).toHaveLength(1);
    // Another organization may register the same DevEUI for itself: its uplinks reach its own integration only.
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/devices',
      headers: stranger.auth,
      payload: { devEui: eui, codec: 'milesight-em300-th' },
    });
    expect(theirs.statusCode).toBe(201);
  });

  it('tries a pasted TS013 codec on a sample frame, refuses a hostile one without harm, and decodes uplinks with a saved one', async () => {
    const source = `function decodeUplink(input) {
      var b = input.bytes, t = b[5] | (b[6] << 8);
      return { data: { battery: b[2], temperature: (t > 0x7fff ? t - 0x10000 : t) / 10, humidity: b[9] / 2 } };
    }`;
    const payloadHex = EM300_FRAME.toString('hex');
    const tried = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/codecs/test',
      headers: owner.auth,
      payload: { source, payloadHex, fPort: 85 },
    });
    expect(tried.statusCode).toBe(200);
    expect(tried.json()).toEqual({
      result: {
        ok: true,
        readings: [{ ts: null, values: { battery: 92, temperature: 30.8, humidity: 50.5 } }],
        warnings: [],
        style: 'ts013',
      },
    });

    for (const hostile of [
      'while (true) {}',
      'var a = []; while (true) a.push(new Array(100000).fill(1));',
      'process.exit(1);',
      "require('fs');",
    ]) {
      const started = Date.now();
      const health = t.app.inject({ url: '/api/health' });
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/lorawan/codecs',
        headers: owner.auth,
        payload: { name: 'Hostile', source: `function decodeUplink(input) { ${hostile} return { data: { x: 1 } }; }`, payloadHex },
      });
      expect(answer.statusCode, hostile).toBe(400);
      expect(answer.json<{ message: string }>().message).toMatch(/^Décodeur refusé : Le décodeur a (dépassé|échoué)/);
      expect(Date.now() - started).toBeLessThan(2_000);
      // The server went on answering while the codec ran.
      expect((await health).statusCode).toBe(200);
    }

    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/codecs',
      headers: owner.auth,
      payload: { name: 'EM300 maison', source, payloadHex, fPort: 85 },
    });
    expect(saved.statusCode).toBe(201);
    const codec = saved.json<{ codec: { id: string; model: string; measures: string[] } }>().codec;
    expect(codec).toMatchObject({ model: 'EM300 maison', measures: ['battery', 'temperature', 'humidity'] });
    expect(codec.id).toMatch(/^custom:[0-9a-f-]{36}$/);
    const listed = (await t.app.inject({ url: '/api/lorawan/codecs', headers: owner.auth })).json<{ codecs: { id: string }[] }>().codecs;
    expect(listed.map((entry) => entry.id)).toEqual(expect.arrayContaining(['milesight-em300-th', 'network', codec.id]));
    const theirs = (await t.app.inject({ url: '/api/lorawan/codecs', headers: stranger.auth })).json<{ codecs: { id: string }[] }>().codecs;
    expect(theirs.map((entry) => entry.id)).not.toContain(codec.id);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/lorawan/devices',
          headers: stranger.auth,
          payload: { devEui: devEui(), codec: codec.id },
        })
      ).statusCode,
    ).toBe(400);

    const tts = await integration(owner, 'tts');
    const eui = devEui();
    const sensor = await register(eui, codec.id);
    expect(sensor.model).toBe('EM300 maison');
    expect((await send(tts, tts.secret, ttsUplink(eui, { fCnt: 5 }))).json()).toEqual({ status: 'stored', readings: 1 });
    expect((await sensorOf(sensor.id)).latest['temperature']?.value).toBe(30.8);
    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/lorawan/codecs/${codec.id.slice('custom:'.length)}`,
      headers: owner.auth,
    });
    expect(removal.statusCode).toBe(409);
  });

  it('saves a pasted codec written in any of the three styles makers publish, and reads a device’s frames with it', async () => {
    // The EM300-TH frame read the same way in each style: battery, temperature, humidity.
    const body = `var b = bytes, t = b[5] | (b[6] << 8);
      return { battery: b[2], temperature: (t > 0x7fff ? t - 0x10000 : t) / 10, humidity: b[9] / 2 };`;
    const sources = {
      ts013: `function decodeUplink(input) { var values = (function (bytes) { ${body} })(input.bytes); return { data: values }; }`,
      'chirpstack-v3': `function Decode(fPort, bytes, variables) { ${body} }`,
      'ttn-v2': `function Decoder(bytes, port) { ${body} }`,
    };
    const payloadHex = EM300_FRAME.toString('hex');
    const tts = await integration(owner, 'tts');
    for (const [style, source] of Object.entries(sources)) {
      // The test console says which style it read the source in.
      const tried = await t.app.inject({
        method: 'POST',
        url: '/api/lorawan/codecs/test',
        headers: owner.auth,
        payload: { source, payloadHex, fPort: 85 },
      });
      expect(tried.json<{ result: { ok: boolean; style?: string } }>().result, style).toMatchObject({ ok: true, style });
      const saved = await t.app.inject({
        method: 'POST',
        url: '/api/lorawan/codecs',
        headers: owner.auth,
        payload: { name: `EM300 ${style}`, source, payloadHex, fPort: 85 },
      });
      expect(saved.statusCode, style).toBe(201);
      const codec = saved.json<{ codec: { id: string; vendor: string; model: string; measures: string[] } }>().codec;
      expect(codec.id, style).toMatch(/^custom:[0-9a-f-]{36}$/);
      expect(codec, style).toMatchObject({ model: `EM300 ${style}`, measures: ['battery', 'temperature', 'humidity'] });
      const eui = devEui();
      const sensor = await register(eui, codec.id);
      expect((await send(tts, tts.secret, ttsUplink(eui, { fCnt: 1 }))).json(), style).toEqual({ status: 'stored', readings: 1 });
      expect((await sensorOf(sensor.id)).latest['temperature']?.value, style).toBe(30.8);
    }
    // A source that defines none of the three functions is refused with the styles it may take.
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/codecs',
      headers: owner.auth,
      payload: { name: 'Sans fonction', source: 'function decode(bytes) { return {}; }', payloadHex },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json<{ message: string }>().message).toBe(
      'Décodeur refusé : Le décodeur doit définir decodeUplink(input) (LoRa Alliance TS013), Decode(fPort, bytes, variables) (ChirpStack v3) ou Decoder(bytes, port) (The Things Network v2).',
    );
  });

  it('no longer hears a deleted integration', async () => {
    const tts = await integration(owner, 'tts');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/integrations/${tts.id}`, headers: owner.auth })).statusCode).toBe(204);
    expect((await send(tts, tts.secret, ttsUplink(devEui()))).statusCode).toBe(401);
  });
});
