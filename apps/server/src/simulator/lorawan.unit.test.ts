import { describe, expect, it } from 'vitest';
import { milesightEm300Th } from '../modules/lorawan/codecs/milesight-em300.ts';
import { readNetworkMessage } from '../modules/lorawan/network-messages.ts';
import {
  chirpstackUpMessage,
  em300ThValues,
  encodeEm300Th,
  lorawanShop,
  ttsUplinkMessage,
  type Em300ThValues,
  type Uplink,
} from './lorawan.ts';

const decode = (frame: Uint8Array) => milesightEm300Th.decode({ bytes: frame, fPort: 85, recvTime: new Date() });

describe('the simulator’s LoRaWAN sensors', () => {
  it('encodes the maker’s example frame byte for byte', () => {
    // Milesight's EM300-TH example: battery 92 %, 30.8 °C, 50.5 %.
    expect(Buffer.from(encodeEm300Th({ battery: 92, temperature: 30.8, humidity: 50.5 })).toString('hex')).toBe('01755c03673401046865');
  });

  it('gives frames that the EM300-TH codec reads back to the same values, at the frame’s resolution', () => {
    const cases: [Em300ThValues, Em300ThValues][] = [
      [
        { temperature: 3.64, humidity: 84.3, battery: 87.4 },
        { temperature: 3.6, humidity: 84.5, battery: 87 },
      ],
      [
        { temperature: -20.56, humidity: 81.2, battery: 12.6 },
        { temperature: -20.6, humidity: 81, battery: 13 },
      ],
      [
        { temperature: 0, humidity: 0, battery: 0 },
        { temperature: 0, humidity: 0, battery: 0 },
      ],
      // Out of what the fields hold: kept at their bounds.
      [
        { temperature: -4000, humidity: 140, battery: 130 },
        { temperature: -3276.8, humidity: 100, battery: 100 },
      ],
    ];
    for (const [values, expected] of cases) {
      const result = decode(encodeEm300Th(values));
      expect(result).toEqual({ ok: true, readings: [{ ts: null, values: expected }], warnings: [] });
    }
  });

  it('round-trips the shop model’s values for every device over a day', () => {
    const start = Date.parse('2026-11-27T00:00:00+01:00');
    for (const device of lorawanShop('TEST', 'Test')) {
      for (let t = start; t < start + 86_400_000; t += 7 * 60_000) {
        const values = em300ThValues(device.sensor, t, 420);
        const result = decode(encodeEm300Th(values));
        if (!result.ok) throw new Error(result.error);
        const read = result.readings[0]?.values ?? {};
        expect(read).toEqual({
          temperature: Math.round(values.temperature * 10) / 10,
          humidity: Math.round(values.humidity * 2) / 2,
          battery: Math.round(values.battery),
        });
        expect(values.humidity).toBeGreaterThan(30);
        expect(values.humidity).toBeLessThan(95);
      }
    }
  });

  it('has two fridges, a freezer and the shop floor to register, one fridge left to adopt, the same DevEUIs on every run', () => {
    const devices = lorawanShop('BOUTIQUELYON', 'Boutique Lyon');
    expect(devices.map((device) => [device.sensor.name, device.sensor.profile, device.preset])).toEqual([
      ['Chambre froide · Boutique Lyon', 'fridge', 'chilled_perishable'],
      ['Vitrine laitages · Boutique Lyon', 'fridge', 'chilled_perishable'],
      ['Congélateur · Boutique Lyon', 'freezer', 'frozen'],
      ['Surface de vente · Boutique Lyon', 'room', 'none'],
      ['Vitrine boissons · Boutique Lyon', 'fridge', null],
    ]);
    for (const device of devices) expect(device.devEui).toMatch(/^24e124[0-9a-f]{10}$/);
    expect(new Set(devices.map((device) => device.devEui)).size).toBe(devices.length);
    expect(lorawanShop('BOUTIQUELYON', 'Boutique Lyon')).toEqual(devices);
    expect(lorawanShop('AUTRE', 'Autre').map((device) => device.devEui)).not.toContain(devices[0]?.devEui);
  });

  it('sends messages that the server reads as The Things Stack’s and ChirpStack’s uplinks', () => {
    const uplink: Uplink = {
      devEui: '24e1240123456789',
      devAddr: '260b1a2f',
      fCnt: 42,
      frame: encodeEm300Th({ temperature: 3.6, humidity: 84.5, battery: 87 }),
      receivedAt: new Date('2026-11-27T10:00:00Z'),
      gatewayEui: 'b827ebfffe6c2a11',
      rssi: -91,
      snr: 6.5,
      deviceName: 'Chambre froide · Boutique Lyon',
      application: 'boutique-lyon',
    };
    const expected = {
      kind: 'uplink',
      devEui: uplink.devEui,
      devAddr: uplink.devAddr,
      fCnt: 42,
      fPort: 85,
      bytes: uplink.frame,
      decoded: null,
      receivedAt: uplink.receivedAt,
      rssi: -91,
      snr: 6.5,
      gateway: uplink.gatewayEui,
    };
    // Through JSON, as it travels.
    const tts = readNetworkMessage('tts', JSON.parse(JSON.stringify(ttsUplinkMessage(uplink))), undefined);
    // The Things Stack names each reception by its correlation id: a retry of that one is the same frame.
    expect(tts).toEqual({
      ...expected,
      versionIds: { brand_id: 'milesight-iot', model_id: 'em300-th' },
      receptionId: expect.stringMatching(/^as:up:/),
    });
    const chirpstack = readNetworkMessage('chirpstack', JSON.parse(JSON.stringify(chirpstackUpMessage(uplink))), 'up');
    // ChirpStack names it by its deduplication id.
    expect(chirpstack).toEqual({ ...expected, versionIds: null, receptionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });
});
