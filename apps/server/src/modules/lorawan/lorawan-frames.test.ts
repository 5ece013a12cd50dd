import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devEui, EM300_FRAME, ttsUplink } from '../../test/lorawan-uplinks.ts';
import { countRows } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const NOW = Date.parse('2026-11-20T10:00:00Z');

/** An EM300-TH frame with this temperature (the maker's example otherwise: battery 92 %, 50,5 %). */
function em300(celsius: number): Buffer {
  const frame = Buffer.from(EM300_FRAME);
  frame.writeInt16LE(Math.round(celsius * 10), 5);
  return frame;
}

/** The Things Stack's message without `dev_addr` nor `f_cnt` (its JSON leaves a zero counter out). */
function withoutCounters(message: ReturnType<typeof ttsUplink>) {
  const { dev_addr: _devAddr, ...ids } = message.end_device_ids;
  const { f_cnt: _fCnt, ...uplink } = message.uplink_message;
  return { ...message, end_device_ids: ids, uplink_message: uplink };
}

function chirpstackUp(eui: string, options: { fCnt?: number; frame?: Buffer; time: Date; deduplicationId: string; devAddr?: string }) {
  return {
    deduplicationId: options.deduplicationId,
    time: options.time.toISOString(),
    deviceInfo: { tenantName: 'ChirpStack', applicationName: 'Magasin', deviceName: 'Chambre froide', devEui: eui },
    ...(options.devAddr === undefined ? {} : { devAddr: options.devAddr }),
    ...(options.fCnt === undefined ? {} : { fCnt: options.fCnt }),
    fPort: 85,
    data: (options.frame ?? EM300_FRAME).toString('base64'),
    rxInfo: [{ gatewayId: '0016c001f153a14c', rssi: -80, snr: 7.5 }],
  };
}

/**
 * docs/protocole-appareils.md, Capteurs LoRaWAN : a frame is the same frame only when it is the
 * same (session, counter and payload, within the deduplication window), and the network server's
 * answer says what was stored.
 */
describe(`LoRaWAN frames: identity, answers and bounds (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let clock = NOW;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  async function integration(type: 'tts' | 'chirpstack') {
    const response = await t.app.inject({ method: 'POST', url: '/api/integrations', headers: owner.auth, payload: { type, name: type } });
    expect(response.statusCode).toBe(201);
    return response.json<{ integration: { id: string; secret: string } }>().integration;
  }
  const send = (target: { id: string; secret: string }, body: unknown, event?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/integrations/${target.id}/events${event ? `?event=${event}` : ''}`,
      headers: { authorization: `Bearer ${target.secret}` },
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
    const response = await t.app.inject({
      url: `/api/sensor/${sensorId}/readings.csv?key=temperature&from=${new Date(NOW - 86_400_000).toISOString()}&to=${new Date(NOW + 86_400_000).toISOString()}&tz=Europe/Paris`,
      headers: owner.auth,
    });
    expect(response.statusCode).toBe(200);
    return response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => Number((line.split(';')[3] ?? '').replace(',', '.')));
  }

  it('keeps both frames of an ABP device whose counter restarted, stores a real retry once, and says so', async () => {
    const tts = await integration('tts');
    const eui = devEui();
    const sensorId = await register(eui);
    const first = ttsUplink(eui, { fCnt: 100, frame: em300(4.1), receivedAt: new Date(NOW - 3_600_000) });
    expect((await send(tts, first)).json()).toEqual({ status: 'stored', readings: 1 });
    // The same message again (a webhook retry, or the MQTT integration beside it): stored once.
    expect((await send(tts, first)).json()).toEqual({ status: 'duplicate', readings: 0, duplicates: 1 });
    // The device heard again by the network a few seconds later (a retransmission): the same frame.
    const again = ttsUplink(eui, { fCnt: 100, frame: em300(4.1), receivedAt: new Date(NOW - 3_600_000 + 8_000) });
    expect((await send(tts, again)).json()).toEqual({ status: 'duplicate', readings: 0, duplicates: 1 });
    // The counter restarted: frame 100 again, another payload. Another frame.
    const restarted = ttsUplink(eui, { fCnt: 100, frame: em300(9.9), receivedAt: new Date(NOW - 60_000) });
    expect((await send(tts, restarted)).json()).toEqual({ status: 'stored', readings: 1 });
    // And even the same payload under the same counter, long after: a new frame.
    const later = ttsUplink(eui, { fCnt: 100, frame: em300(4.1), receivedAt: new Date(NOW) });
    expect((await send(tts, later)).json()).toEqual({ status: 'stored', readings: 1 });
    expect((await temperatures(sensorId)).sort()).toEqual([4.1, 4.1, 9.9]);
  });

  it('keeps two messages without device address nor counter a minute apart', async () => {
    const tts = await integration('tts');
    const eui = devEui();
    const sensorId = await register(eui);
    const one = withoutCounters(ttsUplink(eui, { frame: em300(3.2), receivedAt: new Date(NOW - 120_000) }));
    const two = withoutCounters(ttsUplink(eui, { frame: em300(3.4), receivedAt: new Date(NOW - 60_000) }));
    const same = withoutCounters(ttsUplink(eui, { frame: em300(3.4), receivedAt: new Date(NOW) }));
    expect((await send(tts, one)).json()).toEqual({ status: 'stored', readings: 1 });
    expect((await send(tts, two)).json()).toEqual({ status: 'stored', readings: 1 });
    // The same payload, without counters, a minute later still: the window is shorter, it is kept.
    expect((await send(tts, same)).json()).toEqual({ status: 'stored', readings: 1 });
    expect((await send(tts, two)).json()).toEqual({ status: 'duplicate', readings: 0, duplicates: 1 });
    expect((await temperatures(sensorId)).sort()).toEqual([3.2, 3.4, 3.4]);
  });

  it('tells ChirpStack’s frames apart by session, counter and payload, and its retried event by its deduplicationId', async () => {
    const chirpstack = await integration('chirpstack');
    const eui = devEui();
    const sensorId = await register(eui);
    const base = { devAddr: '01fa3b2c', fCnt: 12, time: new Date(NOW - 600_000) };
    const up = chirpstackUp(eui, { ...base, frame: em300(2.5), deduplicationId: '3d5a4bd8-6a0b-4a73-9d1f-25c1a6b1f0d2' });
    expect((await send(chirpstack, up, 'up')).json()).toEqual({ status: 'stored', readings: 1 });
    expect((await send(chirpstack, up, 'up')).json()).toEqual({ status: 'duplicate', readings: 0, duplicates: 1 });
    // Counter restarted, another payload, another deduplicationId.
    const restarted = chirpstackUp(eui, {
      ...base,
      frame: em300(6.5),
      time: new Date(NOW - 300_000),
      deduplicationId: 'a1b2c3d4-0000-4000-8000-000000000001',
    });
    expect((await send(chirpstack, restarted, 'up')).json()).toEqual({ status: 'stored', readings: 1 });
    // Another session (a rejoin) with the same counter and payload: another frame.
    const rejoined = chirpstackUp(eui, {
      ...base,
      devAddr: '01fa9999',
      frame: em300(6.5),
      time: new Date(NOW - 290_000),
      deduplicationId: 'a1b2c3d4-0000-4000-8000-000000000002',
    });
    expect((await send(chirpstack, rejoined, 'up')).json()).toEqual({ status: 'stored', readings: 1 });
    // No counter nor address (protobuf's JSON leaves a zero out), two payloads.
    for (const [celsius, at] of [
      [1.5, NOW - 200_000],
      [1.7, NOW - 140_000],
    ] as const) {
      const bare = chirpstackUp(eui, {
        frame: em300(celsius),
        time: new Date(at),
        deduplicationId: `b0000000-0000-4000-8000-00000000000${celsius * 10}`,
      });
      expect((await send(chirpstack, bare, 'up')).json()).toEqual({ status: 'stored', readings: 1 });
    }
    expect((await temperatures(sensorId)).sort()).toEqual([1.5, 1.7, 2.5, 6.5, 6.5]);
  });

  it('tells apart two frames of the same bytes that the network server decoded differently', async () => {
    const tts = await integration('tts');
    const eui = devEui();
    const sensorId = await register(eui, 'network');
    const at = new Date(NOW - 20_000);
    for (const celsius of [4.1, 9.9]) {
      const body = ttsUplink(eui, { fCnt: 100, receivedAt: at });
      const decoded = { ...body, uplink_message: { ...body.uplink_message, decoded_payload: { temperature: celsius } } };
      expect((await send(tts, decoded)).json()).toEqual({ status: 'stored', readings: 1 });
    }
    expect((await temperatures(sensorId)).sort()).toEqual([4.1, 9.9]);
  });

  it('answers 2xx to the network for an absurd value, lists the frame as refused on the device, and stores nothing of it', async () => {
    const tts = await integration('tts');
    const eui = devEui();
    const sensorId = await register(eui, 'network');
    const body = ttsUplink(eui, { fCnt: 3, receivedAt: new Date(NOW - 30_000) });
    const absurd = { ...body, uplink_message: { ...body.uplink_message, decoded_payload: { temperature: 1e308, humidity: 40 } } };
    const response = await send(tts, absurd);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'refused', readings: 0 });
    const devices = (await t.app.inject({ url: '/api/lorawan/devices', headers: owner.auth })).json<{
      devices: { devEui: string; lastError: string | null }[];
    }>().devices;
    expect(devices.find((device) => device.devEui === eui)?.lastError).toMatch(/« temperature » .*−100 à 200 °C/);
    expect(await countRows(t, sensorId)).toBe(0);
    // A valid frame after it is stored, and the sensor's reads answer.
    const fine = { ...body, uplink_message: { ...body.uplink_message, f_cnt: 4, decoded_payload: { temperature: 4.4 } } };
    expect((await send(tts, fine)).json()).toEqual({ status: 'stored', readings: 1 });
    for (const url of [`/api/sensor/${sensorId}/readings`, `/api/sensor/${sensorId}/insights`]) {
      expect((await t.app.inject({ url, headers: owner.auth })).statusCode, url).toBe(200);
    }
  });

  it('refuses a pasted codec’s absurd output, and a ChirpStack decoded object’s, as refused frames', async () => {
    const source = 'function decodeUplink(input) { return { data: { temperature: 1e308, battery: input.bytes[2] } }; }';
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/codecs',
      headers: owner.auth,
      payload: { name: 'Décodeur absurde', source, payloadHex: EM300_FRAME.toString('hex'), fPort: 85 },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const tts = await integration('tts');
    const eui = devEui();
    const sensorId = await register(eui, saved.json<{ codec: { id: string } }>().codec.id);
    expect((await send(tts, ttsUplink(eui, { fCnt: 9, receivedAt: new Date(NOW) }))).json()).toEqual({
      status: 'refused',
      readings: 0,
    });
    expect(await countRows(t, sensorId)).toBe(0);

    const chirpstack = await integration('chirpstack');
    const other = devEui();
    const otherId = await register(other, 'network');
    const up = {
      ...chirpstackUp(other, { fCnt: 1, time: new Date(NOW), deduplicationId: 'c0000000-0000-4000-8000-000000000001' }),
      object: { humidity: 250 },
    };
    expect((await send(chirpstack, up, 'up')).json()).toEqual({ status: 'refused', readings: 0 });
    expect(await countRows(t, otherId)).toBe(0);
    clock = NOW;
  });
});
