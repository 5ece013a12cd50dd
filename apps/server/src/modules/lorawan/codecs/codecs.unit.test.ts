import { MEASURE_NAME_PATTERN } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { CODECS, codecById, suggestCodec, type Codec, type CodecResult } from './index.ts';

const NNBSP = '\u202F';
const bytesOf = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.replace(/\s+/g, ''), 'hex'));
const RECEIVED = new Date('2024-06-01T12:00:00Z');

function decode(id: string, hex: string, fPort: number, recvTime: Date = RECEIVED): CodecResult {
  const codec = codecById(id);
  if (!codec) throw new Error(`no codec ${id}`);
  return codec.decode({ bytes: bytesOf(hex), fPort, recvTime });
}

/** Readings with their times as ISO strings, to compare with the fixtures. */
function readingsOf(result: CodecResult) {
  if (!result.ok) throw new Error(`decoding failed: ${result.error}`);
  return result.readings.map((reading) => ({ ts: reading.ts?.toISOString() ?? null, values: reading.values }));
}

interface Fixture {
  /** Where the frame comes from: the maker's own example, a third party's capture, or built here from the documented format. */
  origin: 'maker' | 'third-party' | 'built';
  what: string;
  hex: string;
  fPort: number;
  recvTime?: string;
  readings: { ts: string | null; values: Record<string, number> }[];
  /** The warnings the frame gives (none when left out). */
  warnings?: string[];
}

/*
 * Example frames and the values their sources give for them. The `origin` of each says whether the
 * maker published it, a third party captured it, or it was built here from the published format.
 */
const FIXTURES: Record<string, Fixture[]> = {
  'milesight-em300-th': [
    // Milesight-IoT/SensorDecoders, em-series/em300-th/README.md, « Example ».
    {
      origin: 'maker',
      what: 'battery, temperature, humidity',
      hex: '01755C 03673401 046865',
      fPort: 85,
      readings: [{ ts: null, values: { battery: 92, temperature: 30.8, humidity: 50.5 } }],
    },
    // Milesight-IoT/SensorDecoders, em-series/em300-th/README.md, « Example » (history: timestamp 1665561758).
    {
      origin: 'maker',
      what: 'history entry',
      hex: '20CE9E74466310015D00',
      fPort: 85,
      recvTime: '2022-10-12T09:00:00Z',
      readings: [{ ts: '2022-10-12T08:02:38.000Z', values: { temperature: 27.2, humidity: 46.5 } }],
    },
    // TheThingsNetwork/lorawan-devices, vendor/milesight-iot/em300-th-codec.yaml.
    {
      origin: 'maker',
      what: 'battery 50 %, 20.0 °C, 30 %',
      hex: '017532 0367C800 04683C',
      fPort: 1,
      readings: [{ ts: null, values: { battery: 50, temperature: 20, humidity: 30 } }],
    },
    // Milesight-IoT/SensorDecoders, em-series/em300-th/em300-th-codec.json, « bytes » (0x0104 = 26.0 °C, 0x7B = 61.5 %).
    {
      origin: 'maker',
      what: 'battery 100 %, 26.0 °C, 61.5 %',
      hex: '017564 03670401 04687B',
      fPort: 85,
      readings: [{ ts: null, values: { battery: 100, temperature: 26, humidity: 61.5 } }],
    },
  ],
  'milesight-em300-mcs': [
    // Milesight-IoT/SensorDecoders, em-series/em300-mcs/README.md, « Example » (magnet_status « open »).
    {
      origin: 'maker',
      what: 'battery, temperature, humidity, door open',
      hex: '01755C 03673401 046865 060001',
      fPort: 85,
      readings: [{ ts: null, values: { battery: 92, temperature: 30.8, humidity: 50.5, door: 1 } }],
    },
    // Milesight-IoT/SensorDecoders, em-series/em300-mcs/README.md, « Example » (history, door open).
    {
      origin: 'maker',
      what: 'history entry',
      hex: '20CE9E74466310015D01',
      fPort: 85,
      recvTime: '2022-10-12T09:00:00Z',
      readings: [{ ts: '2022-10-12T08:02:38.000Z', values: { temperature: 27.2, humidity: 46.5, door: 1 } }],
    },
    // Built here from the same README's channel table: door closed (0x06 0x00 = 0), then a history entry.
    {
      origin: 'built',
      what: 'door closed and a history entry in one frame',
      hex: '060000 20CE9E74466310015D00',
      fPort: 85,
      recvTime: '2022-10-12T09:00:00Z',
      readings: [
        { ts: null, values: { door: 0 } },
        { ts: '2022-10-12T08:02:38.000Z', values: { temperature: 27.2, humidity: 46.5, door: 0 } },
      ],
    },
  ],
  'milesight-em300-di': [
    // TheThingsNetwork/lorawan-devices, vendor/milesight-iot/em300-di-codec.yaml (battery 92 %, pulse 256).
    {
      origin: 'maker',
      what: 'battery and pulse count',
      hex: '01755C 05C800010000',
      fPort: 85,
      readings: [{ ts: null, values: { battery: 92, pulse: 256 } }],
    },
    // Milesight-IoT/SensorDecoders, EM_Series/EM300_Series/EM300-DI/README.md, « Example » (history in pulse mode).
    {
      origin: 'maker',
      what: 'battery, temperature, humidity and a history entry',
      hex: '01755C 03673401 046865 20CE9E74466310015D020000010000',
      fPort: 85,
      recvTime: '2022-10-12T09:00:00Z',
      readings: [
        { ts: null, values: { battery: 92, temperature: 30.8, humidity: 50.5 } },
        { ts: '2022-10-12T08:02:38.000Z', values: { temperature: 27.2, humidity: 46.5, pulse: 256 } },
      ],
    },
    // Built here from the same README's channel table: the input's level high, a fridge at 3.5 °C.
    {
      origin: 'built',
      what: 'digital input high, cold temperature',
      hex: '050001 03672300',
      fPort: 85,
      readings: [{ ts: null, values: { digital_input: 1, temperature: 3.5 } }],
    },
  ],
  'milesight-em500-pt100': [
    // TheThingsNetwork/lorawan-devices, vendor/milesight-iot/em500-pt100-codec.yaml (battery 92 %, 28.1 °C).
    {
      origin: 'maker',
      what: 'battery and temperature',
      hex: '01755C 03671901',
      fPort: 85,
      readings: [{ ts: null, values: { battery: 92, temperature: 28.1 } }],
    },
    // Milesight-IoT/SensorDecoders, EM_Series/EM500_Series/EM500-PT100/README.md, « Example ».
    {
      origin: 'maker',
      what: 'battery 100 %, 28.1 °C',
      hex: '017564 03671901',
      fPort: 85,
      readings: [{ ts: null, values: { battery: 100, temperature: 28.1 } }],
    },
    // Built here from the same README's channel table: a freezer at −21.5 °C (0xFF29), its alarm, then a history entry.
    {
      origin: 'built',
      what: 'temperature alarm and a history entry',
      hex: '83D729FF0A0001 20CE9E74466329FF',
      fPort: 85,
      recvTime: '2022-10-12T09:00:00Z',
      readings: [
        { ts: null, values: { temperature: -21.5 } },
        { ts: '2022-10-12T08:02:38.000Z', values: { temperature: -21.5 } },
      ],
    },
  ],
  'elsys-ers': [
    // TheThingsNetwork/lorawan-devices, vendor/elsys/ers-codec.yaml (example left commented in that file).
    {
      origin: 'maker',
      what: 'ERS: temperature, humidity, light, motion',
      hex: '0100E2 0229 040027 0506',
      fPort: 5,
      readings: [{ ts: null, values: { temperature: 22.6, humidity: 41, light: 39, motion: 6 } }],
    },
    // TheThingsNetwork/lorawan-devices, vendor/elsys/ers-co2-codec.yaml.
    {
      origin: 'maker',
      what: 'ERS CO2: temperature, humidity, light, motion, CO₂',
      hex: '0100E2 0229 040027 0506 060308',
      fPort: 5,
      readings: [{ ts: null, values: { temperature: 22.6, humidity: 41, light: 39, motion: 6, co2: 776 } }],
    },
    // TheThingsNetwork/lorawan-devices, vendor/elsys/ers-lite-codec.yaml.
    {
      origin: 'maker',
      what: 'ERS Lite: temperature, humidity',
      hex: '0100E2 0229',
      fPort: 5,
      readings: [{ ts: null, values: { temperature: 22.6, humidity: 41 } }],
    },
    // Built here from the type table of vendor/elsys/elsys.js: −4.1 °C, 3600 mV, occupied, 1013.25 hPa, settings block skipped.
    {
      origin: 'built',
      what: 'negative temperature, supply voltage, occupancy, pressure, settings',
      hex: '01FFD7 070E10 1102 14000F7602 3E020102',
      fPort: 5,
      readings: [{ ts: null, values: { temperature: -4.1, battery: 100, occupancy: 1, pressure: 1013.25 } }],
    },
  ],
  'elsys-ems': [
    // TheThingsNetwork/lorawan-devices, vendor/elsys/ems-codec.yaml (pulse1 8465: the frame's second
    // pulse count, the maker's decoder keeping a repeated type's last value; accelerometer and water leak not read).
    {
      origin: 'maker',
      what: 'EMS: temperature, humidity, accelerometer, pulses, water leak',
      hex: '0100E2 0229 03012705 0A1101 1211 0A2111',
      fPort: 1,
      readings: [{ ts: null, values: { temperature: 22.6, humidity: 41, pulse: 8465 } }],
    },
    // TheThingsNetwork/lorawan-devices, vendor/elsys/ems-door-codec.yaml (pulse1 4353; absolute count not read).
    {
      origin: 'maker',
      what: 'EMS Door: accelerometer, door switch count',
      hex: '03012705 0A1101 0B000A0011',
      fPort: 1,
      readings: [{ ts: null, values: { pulse: 4353 } }],
    },
    // TheThingsNetwork/lorawan-devices, vendor/elsys/ems-lite-codec.yaml (water leak level not read).
    {
      origin: 'maker',
      what: 'EMS Lite: temperature, humidity, water leak',
      hex: '0100E2 0229 1211',
      fPort: 1,
      readings: [{ ts: null, values: { temperature: 22.6, humidity: 41 } }],
    },
    // Built here from the type table of vendor/elsys/elsys.js: a cold room at 2.5 °C, the digital input closed, 3.6 V.
    {
      origin: 'built',
      what: 'cold room, digital input, supply voltage',
      hex: '010019 0D00 070E10',
      fPort: 1,
      readings: [{ ts: null, values: { temperature: 2.5, digital_input: 0, battery: 100 } }],
    },
  ],
  'dragino-lht65': [
    // TheThingsNetwork/lorawan-devices, vendor/dragino/lht65-codec.yaml and vendor/dragino/lht65n-codec.yaml
    // (BatV 3.062, TempC_SHT 28.29, Hum_SHT 88.6, TempC_DS 27.81). 3.062 V is 51 % on the 2.5–3.6 V map.
    {
      origin: 'maker',
      what: 'built-in sensor and DS18B20 probe',
      hex: 'CBF6 0B0D 0376 01 0ADD 7FFF',
      fPort: 2,
      readings: [{ ts: null, values: { battery: 51, temperature: 28.29, humidity: 88.6, probe_temperature: 27.81 } }],
    },
    // Built here from the LHT65 user manual's datalog section: its example table of logged values
    // (21/1/19 04:27:03, sht_temp 22.00, sht_hum 32.6, ds_temp 327.67, …) laid out as the documented
    // 11-byte entries with the poll flag, then an all-zero entry (« no data »). The manual gives the
    // values, not the uplink's bytes.
    {
      origin: 'built',
      what: 'datalog poll reply, port 3',
      hex: '7FFF 0898 0146 41 60065F97' + '7FFF 088E 014B 41 60066009' + '7FFF 0885 014E 41 60066066' + '0000 0000 0000 00 00000000',
      fPort: 3,
      recvTime: '2021-01-19T05:30:00Z',
      readings: [
        { ts: '2021-01-19T04:27:03.000Z', values: { temperature: 22, humidity: 32.6 } },
        { ts: '2021-01-19T04:28:57.000Z', values: { temperature: 21.9, humidity: 33.1 } },
        { ts: '2021-01-19T04:30:30.000Z', values: { temperature: 21.81, humidity: 33.4 } },
      ],
    },
    // Built here from the LHT65N port-2 layout for Ext 0x09 (« DS18B20 with timestamp »): probe 25.00 °C,
    // built-in 22.00 °C, battery status « good » over humidity 32.6 %, sample time 0x60065F97.
    {
      origin: 'built',
      what: 'probe with timestamp (Ext 0x09)',
      hex: '09C4 0898 C146 09 60065F97',
      fPort: 2,
      recvTime: '2021-01-19T04:30:00Z',
      readings: [{ ts: '2021-01-19T04:27:03.000Z', values: { probe_temperature: 25, temperature: 22, humidity: 32.6 } }],
    },
    // Built here: a freezer probe at −18.50 °C (0xF8C6), the built-in sensor at 4.10 °C, 3.300 V.
    {
      origin: 'built',
      what: 'negative probe temperature',
      hex: 'CCE4 019A 0320 01 F8C6 7FFF',
      fPort: 2,
      readings: [{ ts: null, values: { battery: 73, temperature: 4.1, humidity: 80, probe_temperature: -18.5 } }],
    },
  ],
  'dragino-lht65n': [
    // TheThingsNetwork/lorawan-devices, vendor/dragino/lht65n-codec.yaml, « Temperature » (BatV 3.062,
    // TempC_SHT 28.29, Hum_SHT 88.6, TempC_DS 27.81).
    {
      origin: 'maker',
      what: 'built-in sensor and DS18B20 probe',
      hex: 'CBF6 0B0D 0376 01 0ADD 7FFF',
      fPort: 2,
      readings: [{ ts: null, values: { battery: 51, temperature: 28.29, humidity: 88.6, probe_temperature: 27.81 } }],
    },
    // Built here from TheThingsNetwork/lorawan-devices, vendor/dragino/lht65n.js (format): a TMP117 probe
    // (Ext 0x02) at −19.25 °C in a freezer, the built-in sensor at 3.10 °C, 3.300 V.
    {
      origin: 'built',
      what: 'TMP117 probe',
      hex: 'CCE4 0136 0320 02 F87B 7FFF',
      fPort: 2,
      readings: [{ ts: null, values: { battery: 73, temperature: 3.1, humidity: 80, probe_temperature: -19.25 } }],
    },
    // Built here from the same decoder: Ext 0x0F carries the DS18B20's identifier, not the built-in readings.
    {
      origin: 'built',
      what: 'probe identifier (Ext 0x0F)',
      hex: 'CBF6 2801 0203 0F 0405 0607',
      fPort: 2,
      readings: [{ ts: null, values: { battery: 51 } }],
    },
  ],
  'dragino-lht52': [
    // TheThingsNetwork/lorawan-devices, vendor/dragino/lht52-codec.yaml, « Temperature & Humidity »
    // (TempC_SHT 22.53, Hum_SHT 54.4, TempC_DS 327.67 = no probe, Systimestamp 1640845021).
    {
      origin: 'maker',
      what: 'built-in sensor, no probe, device time',
      hex: '08CD 0220 7FFF 01 61CD4EDD',
      fPort: 2,
      recvTime: '2021-12-30T06:20:00Z',
      readings: [{ ts: '2021-12-30T06:17:01.000Z', values: { temperature: 22.53, humidity: 54.4 } }],
    },
    // TheThingsNetwork/lorawan-devices, vendor/dragino/lht52-codec.yaml, status frame (port 5): no measure.
    {
      origin: 'maker',
      what: 'device status',
      hex: '0B88010025 0001',
      fPort: 5,
      readings: [],
      warnings: ['Trame d’état d’un LHT52 (modèle, micrologiciel, bande), sans mesure.'],
    },
    // Built here from TheThingsNetwork/lorawan-devices, vendor/dragino/lht52.js (format): a probe at −18.00 °C
    // in a freezer, the built-in sensor at 4.00 °C.
    {
      origin: 'built',
      what: 'probe in a freezer',
      hex: '0190 0320 F8F8 01 61CD4EDD',
      fPort: 2,
      recvTime: '2021-12-30T06:20:00Z',
      readings: [{ ts: '2021-12-30T06:17:01.000Z', values: { temperature: 4, humidity: 80, probe_temperature: -18 } }],
    },
  ],
  'adeunis-temp': [
    // TheThingsNetwork/lorawan-devices, vendor/adeunis/temp-codec.yaml, « 0x57 Temp 4 periodic data »
    // (two channels, values [t=0, t−1]: 43.5 and 50 °C, −10 and −0.1 °C; low battery; 2023-12-28T19:22:17).
    {
      origin: 'maker',
      what: 'periodic data, two channels, timestamp, low battery',
      hex: '57 96 01B3 FF9C 01F4 FFFF 14ABA3E9',
      fPort: 1,
      recvTime: '2023-12-28T19:30:00Z',
      readings: [{ ts: '2023-12-28T19:22:17.000Z', values: { temperature: 43.5, probe_temperature: -10 } }],
      warnings: ['L’Adeunis TEMP signale une pile faible.'],
    },
    // Built here from TheThingsNetwork/lorawan-devices, vendor/adeunis/temp_lib.js (format): keep-alive,
    // one channel at 4.2 °C, no timestamp.
    {
      origin: 'built',
      what: 'keep-alive, one channel',
      hex: '30 20 002A',
      fPort: 1,
      readings: [{ ts: null, values: { temperature: 4.2 } }],
    },
    // Built here from the same library: alarm, two channels (built-in 5.5 °C high threshold, probe −17.5 °C).
    {
      origin: 'built',
      what: 'alarm, two channels',
      hex: '58 30 01 0037 00 FF51',
      fPort: 1,
      readings: [{ ts: null, values: { temperature: 5.5, probe_temperature: -17.5 } }],
    },
  ],
  'browan-tbhh100': [
    // TheThingsNetwork/lorawan-devices, vendor/browan/tbhh100-codec.yaml (status 1, 21 °C, 34 %, 3.6 V).
    {
      origin: 'maker',
      what: 'temperature and humidity',
      hex: '08AB3522FFFFFFFF',
      fPort: 103,
      readings: [{ ts: null, values: { temperature: 21, humidity: 34, battery: 100 } }],
    },
    // ZennerIoT/element-parsers, lib/tabs.ex (its tests_healthy_home, a device's frame: 21 °C, 37 %, 3.6 V).
    {
      origin: 'third-party',
      what: 'temperature and humidity, no air-quality data',
      hex: '08FB3525FFFFFFFF',
      fPort: 103,
      readings: [{ ts: null, values: { temperature: 21, humidity: 37, battery: 100 } }],
    },
    // Built here from TheThingsNetwork/lorawan-devices, vendor/browan/temperaturehumiditysensor-codec.yaml
    // (format): 3.0 V (ν = 5), 4 °C (τ = 36), 80 %.
    {
      origin: 'built',
      what: 'cold room, lower battery',
      hex: '0805 24 50 FFFFFFFF',
      fPort: 103,
      readings: [{ ts: null, values: { temperature: 4, humidity: 80, battery: 45 } }],
    },
  ],
  'browan-tbdw100': [
    // TheThingsNetwork/lorawan-devices, vendor/browan/tbdw100-codec.yaml (door closed, 21 °C, 3.6 V).
    {
      origin: 'maker',
      what: 'door closed',
      hex: '00CB3500008A3A00',
      fPort: 100,
      readings: [{ ts: null, values: { door: 0, temperature: 21, battery: 100 } }],
    },
    // ZennerIoT/element-parsers, lib/tabs.ex (its tests_doornwindow, a device's frames: −27 °C, 3.6 V).
    {
      origin: 'third-party',
      what: 'door closed, in a freezer',
      hex: '00FB050000781D00',
      fPort: 100,
      readings: [{ ts: null, values: { door: 0, temperature: -27, battery: 100 } }],
    },
    {
      origin: 'third-party',
      what: 'door open, in a freezer',
      hex: '01FB050000771D00',
      fPort: 100,
      readings: [{ ts: null, values: { door: 1, temperature: -27, battery: 100 } }],
    },
  ],
  'browan-tbhv110': [
    // TheThingsNetwork/lorawan-devices, vendor/browan/tbhv110-codec.yaml, « IAQ changed » (3.6 V, 22 °C,
    // 30 %, eCO₂ 959 ppm; the board's 21 °C, VOC and IAQ not read).
    {
      origin: 'maker',
      what: 'air quality',
      hex: '610B351EBF03010051 0036',
      fPort: 103,
      readings: [{ ts: null, values: { temperature: 22, humidity: 30, co2: 959, battery: 100 } }],
    },
    // Built here from TheThingsNetwork/lorawan-devices, vendor/browan/tbhv110.js (format): a cold room at 4 °C, 85 %, 450 ppm, 3.0 V.
    {
      origin: 'built',
      what: 'cold room',
      hex: '0105 24 55 C201 0000 0000 24',
      fPort: 103,
      readings: [{ ts: null, values: { temperature: 4, humidity: 85, co2: 450, battery: 45 } }],
    },
  ],
  'netvox-r718a': [
    // TheThingsNetwork/lorawan-devices, vendor/netvox/r718a-codec.yaml, « Status report » (3.6 V, 25.38 °C, 68 %).
    {
      origin: 'maker',
      what: 'status report',
      hex: '01 0B 01 24 09EA 1A90 000000',
      fPort: 6,
      readings: [{ ts: null, values: { temperature: 25.38, humidity: 68, battery: 100 } }],
    },
    // TheThingsNetwork/lorawan-devices, vendor/netvox/r718ab-codec.yaml, « Status report » (same format, device type 0x13).
    {
      origin: 'maker',
      what: 'R718AB status report',
      hex: '01 13 01 24 09EA 1A90 000000',
      fPort: 6,
      readings: [{ ts: null, values: { temperature: 25.38, humidity: 68, battery: 100 } }],
    },
    // thingsboard/data-converters, VENDORS/Netvox/R718A/guide.md (the manual's example values 3.6 V,
    // 0x0670 = 16.48 °C, 0x1A9E = 68.14 %) and VENDORS/Netvox/R718A/LORIOT/uplink/payload.json (the frame).
    {
      origin: 'third-party',
      what: 'status report, hundredths',
      hex: '010B012406701A9E000000',
      fPort: 6,
      readings: [{ ts: null, values: { temperature: 16.48, humidity: 68.14, battery: 100 } }],
    },
    // Built here from the same report layout: −25.00 °C (0xF63C), 45.00 %, 3.2 V with the low-battery bit
    // checked separately below.
    {
      origin: 'built',
      what: 'below zero',
      hex: '01 0B 01 20 F63C 1194 000000',
      fPort: 6,
      readings: [{ ts: null, values: { temperature: -25, humidity: 45, battery: 64 } }],
    },
  ],
  'laird-rs1xx': [
    // TheThingsNetwork/lorawan-devices, vendor/laird/rs1xx-temp-rh-sensor-codec.yaml, « Send Temp RH Data
    // Notification » (52.33 %, 98.67 °C, battery « 80-100% »).
    {
      origin: 'maker',
      what: 'temperature and humidity',
      hex: '01 00 2134 4362 05 0100 0001',
      fPort: 1,
      readings: [{ ts: null, values: { humidity: 52.33, temperature: 98.67, battery: 90 } }],
    },
    // Same file, « Send Temp and RH Aggregated Data Notification »: two readings, the device's clock unset.
    {
      origin: 'maker',
      what: 'aggregated readings',
      hex: '02 00 00 0000 05 02 00000000 2134 4362 2235 4463',
      fPort: 1,
      readings: [{ ts: null, values: { humidity: 52.33, temperature: 98.67, battery: 90 } }],
      warnings: [
        `Horodatage de l’appareil invalide (1420070400\u00A0s depuis 1970, loin de la réception)${NNBSP}: la lecture est datée de sa réception.`,
      ],
    },
    // Same file, « Send Backlog Message Notification » and « Send Backlog Messages Notification »: logged
    // readings stamped by a clock never set (2015-01-01), skipped.
    {
      origin: 'maker',
      what: 'one logged reading, clock unset',
      hex: '03 02 00000002 2A3D 4C6B',
      fPort: 1,
      readings: [],
      warnings: [
        `Horodatage de l’appareil invalide (1420070402\u00A0s depuis 1970, loin de la réception)${NNBSP}: entrée d’historique ignorée.`,
      ],
    },
    {
      origin: 'maker',
      what: 'two logged readings, clock unset',
      hex: '04 01 02 00000000 2A3D 4C6B 00000000 2A3D 4C6B',
      fPort: 1,
      readings: [],
      warnings: [
        `Horodatage de l’appareil invalide (1420070400\u00A0s depuis 1970, loin de la réception)${NNBSP}: entrée d’historique ignorée.`,
        `Horodatage de l’appareil invalide (1420070400\u00A0s depuis 1970, loin de la réception)${NNBSP}: entrée d’historique ignorée.`,
      ],
    },
    // Same file, « Send Sensor Config Simple/Advanced Notification », « Send FW Version Notification »,
    // « Send Battery Voltage »: no measure.
    {
      origin: 'maker',
      what: 'simple configuration',
      hex: '0500010100000100',
      fPort: 1,
      readings: [],
      warnings: ['Message de configuration d’un RS1xx, sans mesure.'],
    },
    {
      origin: 'maker',
      what: 'advanced configuration',
      hex: '06000101000101 01FF500010000A000A',
      fPort: 1,
      readings: [],
      warnings: ['Message de configuration avancée d’un RS1xx, sans mesure.'],
    },
    {
      origin: 'maker',
      what: 'firmware version',
      hex: '0700140B050601 01020304',
      fPort: 1,
      readings: [],
      warnings: ['Message de version du micrologiciel d’un RS1xx, sans mesure.'],
    },
    {
      origin: 'maker',
      what: 'battery voltage',
      hex: '0A000103',
      fPort: 1,
      readings: [],
      warnings: ['Message de tension de pile d’un RS1xx, sans mesure.'],
    },
    // Built here from TheThingsNetwork/lorawan-devices, vendor/laird/rs1xx-temp-rh-sensor.js (format): a logged
    // reading in a freezer (−18.25 °C: hundredths −25, units −18; 60.50 %), 2021-12-30T06:00:00Z.
    {
      origin: 'built',
      what: 'logged reading below zero',
      hex: '03 00 0D28BCE0 32 3C E7 EE',
      fPort: 1,
      recvTime: '2021-12-30T06:20:00Z',
      readings: [{ ts: '2021-12-30T06:00:00.000Z', values: { humidity: 60.5, temperature: -18.25 } }],
    },
  ],
  'cayenne-lpp': [
    // myDevicesIoT/CayenneLPP, README.md, « Examples »: device with 2 temperature sensors (27.2 °C, 25.5 °C).
    {
      origin: 'maker',
      what: 'two temperature channels',
      hex: '03 67 0110 05 67 00FF',
      fPort: 1,
      readings: [{ ts: null, values: { temperature: 27.2, temperature_5: 25.5 } }],
    },
    // myDevicesIoT/CayenneLPP, README.md, « Examples »: frame N (−4.1 °C) and frame N+1 (accelerometer).
    {
      origin: 'maker',
      what: 'negative temperature',
      hex: '01 67 FFD7',
      fPort: 1,
      readings: [{ ts: null, values: { temperature: -4.1 } }],
    },
    {
      origin: 'maker',
      what: 'accelerometer',
      hex: '06 71 04D2 FB2E 0000',
      fPort: 1,
      readings: [{ ts: null, values: { acceleration_x: 1.234, acceleration_y: -1.234, acceleration_z: 0 } }],
    },
    // The GPS example of the Cayenne LPP documentation (42.3519, −87.9094, 10 m), also the values of
    // the example code in myDevicesIoT/CayenneLPP, README.md.
    {
      origin: 'maker',
      what: 'GPS',
      hex: '01 88 06765F F2960A 0003E8',
      fPort: 1,
      readings: [{ ts: null, values: { latitude: 42.3519, longitude: -87.9094, altitude: 10 } }],
    },
    // Built here from the type table (myDevicesIoT/CayenneLPP, src/CayenneLPP.h): humidity 30 %,
    // barometer 1014.1 hPa, illuminance 540 lux, presence, digital input.
    {
      origin: 'built',
      what: 'humidity, barometer, illuminance, presence, digital input',
      hex: '03 68 3C 04 73 279D 07 65 021C 08 66 01 09 00 01',
      fPort: 1,
      readings: [{ ts: null, values: { humidity: 30, pressure: 1014.1, light: 540, occupancy: 1, digital_input: 1 } }],
    },
  ],
};

describe('built-in LoRaWAN codecs', () => {
  it('are the expected ones, found by id, each with its measures', () => {
    expect(CODECS.map((codec) => codec.id)).toEqual([
      'milesight-em300-th',
      'milesight-em300-mcs',
      'milesight-em300-di',
      'milesight-em500-pt100',
      'elsys-ers',
      'elsys-ems',
      'dragino-lht65',
      'dragino-lht65n',
      'dragino-lht52',
      'adeunis-temp',
      'browan-tbhh100',
      'browan-tbdw100',
      'browan-tbhv110',
      'netvox-r718a',
      'laird-rs1xx',
      'cayenne-lpp',
    ]);
    for (const codec of CODECS) {
      expect(codecById(codec.id)).toBe(codec);
      expect(codec.vendor.length).toBeGreaterThan(0);
      expect(codec.model.length).toBeGreaterThan(0);
      for (const measure of codec.measures) expect(measure).toMatch(MEASURE_NAME_PATTERN);
    }
    expect(codecById('unknown')).toBeUndefined();
  });

  describe.each(Object.entries(FIXTURES))('%s, example frames', (id, fixtures) => {
    it('has at least two example frames', () => {
      expect(fixtures.length).toBeGreaterThanOrEqual(2);
    });
    it.each(fixtures)('$origin: $what ($hex)', (fixture) => {
      const result = decode(id, fixture.hex, fixture.fPort, fixture.recvTime ? new Date(fixture.recvTime) : RECEIVED);
      expect(readingsOf(result)).toEqual(fixture.readings);
      expect(result.ok && result.warnings).toEqual(fixture.warnings ?? []);
    });
  });
});

/** The frames their makers document as refused (« unknown FPort »), with the sentence Vigie gives. */
const MAKER_REFUSALS: { id: string; source: string; hex: string; fPort: number; error: string }[] = [
  {
    id: 'dragino-lht65',
    source: 'TheThingsNetwork/lorawan-devices, vendor/dragino/lht65-codec.yaml, « Unknown FPort »',
    hex: 'CBF60B0D0376010ADD7FFF',
    fPort: 42,
    error: `Port LoRaWAN 42 inattendu pour un LHT65${NNBSP}: les mesures arrivent sur le port 2, le journal sur le port 3.`,
  },
  {
    id: 'dragino-lht65n',
    source: 'TheThingsNetwork/lorawan-devices, vendor/dragino/lht65n-codec.yaml, « Unknown FPort »',
    hex: 'CBF60B0D0376010ADD7FFF',
    fPort: 42,
    error: `Port LoRaWAN 42 inattendu pour un LHT65N${NNBSP}: les mesures arrivent sur le port 2, le journal sur le port 3.`,
  },
  {
    id: 'dragino-lht52',
    source: 'TheThingsNetwork/lorawan-devices, vendor/dragino/lht52-codec.yaml, « Unknown FPort »',
    hex: '0B880100250001',
    fPort: 42,
    error: `Port LoRaWAN 42 inattendu pour un LHT52${NNBSP}: les mesures arrivent sur le port 2.`,
  },
  {
    id: 'browan-tbhh100',
    source: 'TheThingsNetwork/lorawan-devices, vendor/browan/tbhh100-codec.yaml, « Unknown FPort »',
    hex: '01',
    fPort: 42,
    error: `Port LoRaWAN 42 inattendu pour un TBHH100${NNBSP}: les mesures arrivent sur le port 103.`,
  },
  {
    id: 'browan-tbdw100',
    source: 'TheThingsNetwork/lorawan-devices, vendor/browan/tbdw100-codec.yaml, « Unknown FPort »',
    hex: '01',
    fPort: 42,
    error: `Port LoRaWAN 42 inattendu pour un TBDW100${NNBSP}: les mesures arrivent sur le port 100.`,
  },
  {
    id: 'browan-tbhv110',
    source: 'TheThingsNetwork/lorawan-devices, vendor/browan/tbhv110-codec.yaml, « Unknown FPort »',
    hex: '01',
    fPort: 42,
    error: `Port LoRaWAN 42 inattendu pour un TBHV110${NNBSP}: les mesures arrivent sur le port 103.`,
  },
];

describe('frames their makers document as refused', () => {
  it.each(MAKER_REFUSALS)('$id: $source', ({ id, hex, fPort, error }) => {
    expect(errorOf(decode(id, hex, fPort))).toBe(error);
  });
});

/** The error of a failed decoding, French with its typography. */
function errorOf(result: CodecResult): string {
  if (result.ok) throw new Error('decoding should have failed');
  expect(result.error).toMatch(/^[A-ZÉ].*\.$/);
  expect(result.error).not.toMatch(/ [:;?!]/);
  return result.error;
}

function warningsOf(result: CodecResult): string[] {
  if (!result.ok) throw new Error(`decoding failed: ${result.error}`);
  for (const warning of result.warnings) expect(warning).not.toMatch(/ [:;?!]/);
  return result.warnings;
}

describe('Milesight EM300', () => {
  it('refuses a frame too short to hold a channel', () => {
    expect(errorOf(decode('milesight-em300-th', '0175', 85))).toBe(
      `Trame trop courte pour un EM300-TH${NNBSP}: 2 octets reçus, 3 au moins attendus.`,
    );
    expect(errorOf(decode('milesight-em300-mcs', '', 85))).toBe(
      `Trame trop courte pour un EM300-MCS${NNBSP}: 0 octet reçu, 3 au moins attendus.`,
    );
  });

  it('stops at an unknown channel: an error when nothing came before, a warning otherwise', () => {
    expect(errorOf(decode('milesight-em300-th', '060001', 85))).toContain('Canal 0x06 0x00 inconnu d’un EM300-TH');
    const partial = decode('milesight-em300-th', '01755C 0500 01 03673401', 85);
    expect(readingsOf(partial)).toEqual([{ ts: null, values: { battery: 92 } }]);
    expect(warningsOf(partial)).toEqual([
      `Canal 0x05 0x00 inconnu d’un EM300-TH, à l’octet 4${NNBSP}: la fin de la trame (7 octets) est ignorée.`,
    ]);
  });

  it('keeps what came before a truncated channel', () => {
    const result = decode('milesight-em300-th', '01755C 0367 34', 85);
    expect(readingsOf(result)).toEqual([{ ts: null, values: { battery: 92 } }]);
    expect(warningsOf(result)).toEqual([`Trame EM300-TH tronquée${NNBSP}: le canal 0x03 0x67 annonce 2 octets, 1 reçu.`]);
  });

  it('reads device attributes as a frame without measure', () => {
    const result = decode('milesight-em300-th', 'FF0BFF FF0101 FF166136C19146040012 FF090140 FF0A0114 FF0F00', 85);
    expect(readingsOf(result)).toEqual([]);
    expect(warningsOf(result)).toEqual(['Trame EM300-TH sans mesure (informations de l’appareil ou réponse à une commande).']);
  });

  it('skips a history entry stamped by an unset clock', () => {
    const result = decode('milesight-em300-th', '01755C 20CE00000000 10015D00', 85);
    expect(readingsOf(result)).toEqual([{ ts: null, values: { battery: 92 } }]);
    expect(warningsOf(result)[0]).toContain('Horodatage de l’appareil invalide (0\u00A0s depuis 1970');
  });
});

describe('Elsys', () => {
  it('refuses a frame too short or of an unknown type', () => {
    expect(errorOf(decode('elsys-ers', '01', 5))).toBe(
      `Trame trop courte pour un capteur Elsys${NNBSP}: 1 octet reçu, 2 au moins attendus.`,
    );
    expect(errorOf(decode('elsys-ers', '4200E2', 5))).toContain('Type 0x42 inconnu d’une trame Elsys, à l’octet 1');
  });

  it('keeps the values read before an unknown type or a truncation', () => {
    const unknown = decode('elsys-ers', '0100E2 42 0229', 5);
    expect(readingsOf(unknown)).toEqual([{ ts: null, values: { temperature: 22.6 } }]);
    expect(warningsOf(unknown)).toHaveLength(1);
    const truncated = decode('elsys-ers', '0100E2 0603', 5);
    expect(readingsOf(truncated)).toEqual([{ ts: null, values: { temperature: 22.6 } }]);
    expect(warningsOf(truncated)).toEqual([`Trame Elsys tronquée${NNBSP}: le type 0x06 annonce 2 octets, 1 reçu.`]);
  });
});

describe('Dragino LHT65', () => {
  it('refuses a short frame and an unexpected port; port 5 is the device status', () => {
    expect(errorOf(decode('dragino-lht65', 'CBF60B0D', 2))).toBe(
      `Trame trop courte pour un LHT65${NNBSP}: 4 octets reçus, 11 au moins attendus.`,
    );
    expect(errorOf(decode('dragino-lht65', 'CBF60B0D0376010ADD7FFF', 42))).toBe(
      `Port LoRaWAN 42 inattendu pour un LHT65${NNBSP}: les mesures arrivent sur le port 2, le journal sur le port 3.`,
    );
    expect(errorOf(decode('dragino-lht65', 'CBF60B0D0376010ADD7FFF00', 3))).toContain('Trame du port 3 d’un LHT65 non reconnue');
    const status = decode('dragino-lht65', '0B011501FF0BF6', 5);
    expect(readingsOf(status)).toEqual([]);
    expect(warningsOf(status)).toHaveLength(1);
  });

  it('leaves out a probe that gives no reading (0x7FFF)', () => {
    const result = decode('dragino-lht65', 'CBF6 0B0D 0376 01 7FFF 7FFF', 2);
    expect(readingsOf(result)).toEqual([{ ts: null, values: { battery: 51, temperature: 28.29, humidity: 88.6 } }]);
  });

  it('skips datalog entries whose time cannot be right', () => {
    const result = decode('dragino-lht65', '7FFF089801464160065F97 7FFF088E014B4100000010', 3, new Date('2021-01-19T05:30:00Z'));
    expect(readingsOf(result)).toEqual([{ ts: '2021-01-19T04:27:03.000Z', values: { temperature: 22, humidity: 32.6 } }]);
    expect(warningsOf(result)).toEqual([
      `Horodatage de l’appareil invalide (16\u00A0s depuis 1970, loin de la réception)${NNBSP}: entrée d’historique ignorée.`,
    ]);
  });

  it('reads retransmitted entries sent on port 2 with their own time, and reports bytes past the last one', () => {
    const result = decode('dragino-lht65', '7FFF 0898 0146 81 60065F97 FFFF', 2, new Date('2021-01-19T05:30:00Z'));
    expect(readingsOf(result)).toEqual([{ ts: '2021-01-19T04:27:03.000Z', values: { temperature: 22, humidity: 32.6 } }]);
    expect(warningsOf(result)).toEqual([`Journal de LHT65 tronqué${NNBSP}: 2 octets après la dernière entrée de 11 octets, ignorés.`]);
  });

  it('reads a flagged 11-byte frame whose time cannot be right as a live frame', () => {
    const result = decode('dragino-lht65', 'CBF6 0B0D 0376 81 0ADD 7FFF', 2);
    expect(readingsOf(result)).toEqual([
      { ts: null, values: { battery: 51, temperature: 28.29, humidity: 88.6, probe_temperature: 27.81 } },
    ]);
  });

  it('warns about an external sensor type it does not know', () => {
    const result = decode('dragino-lht65', 'CBF6 0B0D 0376 3A 0000 0000', 2);
    expect(readingsOf(result)).toEqual([{ ts: null, values: { battery: 51, temperature: 28.29, humidity: 88.6 } }]);
    expect(warningsOf(result)).toEqual([
      `Capteur externe de type 0x3A inconnu d’un LHT65${NNBSP}: seules les mesures intégrées sont lues.`,
    ]);
  });
});

describe('Browan Tabs', () => {
  it('refuses a short frame and an unexpected port; configuration answers carry no measure', () => {
    expect(errorOf(decode('browan-tbhh100', '08AB35', 103))).toBe(
      `Trame trop courte pour un TBHH100${NNBSP}: 3 octets reçus, 4 au moins attendus.`,
    );
    expect(errorOf(decode('browan-tbhh100', '08AB3522FFFFFFFF', 100))).toBe(
      `Port LoRaWAN 100 inattendu pour un TBHH100${NNBSP}: les mesures arrivent sur le port 103.`,
    );
    expect(errorOf(decode('browan-tbdw100', '00CB', 100))).toBe(
      `Trame trop courte pour un TBDW100${NNBSP}: 2 octets reçus, 3 au moins attendus.`,
    );
    expect(warningsOf(decode('browan-tbdw100', '0110E000', 204))).toEqual([
      'Réponse d’un TBDW100 à une commande de configuration, sans mesure.',
    ]);
  });

  it('leaves out a humidity the sensor reports as a measurement error (127)', () => {
    const result = decode('browan-tbhh100', '08AB357FFFFFFFFF', 103);
    expect(readingsOf(result)).toEqual([{ ts: null, values: { temperature: 21, battery: 100 } }]);
    expect(warningsOf(result)).toEqual([`Le TBHH100 signale une erreur de mesure de l’humidité${NNBSP}: valeur ignorée.`]);
  });
});

describe('Netvox R718A', () => {
  it('refuses another Netvox model, a short report, an unknown report type or port', () => {
    expect(errorOf(decode('netvox-r718a', '01 02 01 24 01 000000000000', 6))).toContain('Appareil Netvox de type 0x02');
    expect(errorOf(decode('netvox-r718a', '01 0B 01 24 09', 6))).toBe(
      `Trame trop courte pour un R718A${NNBSP}: 5 octets reçus, 8 au moins attendus.`,
    );
    expect(errorOf(decode('netvox-r718a', '01 0B 07 24 09EA 1A90 000000', 6))).toBe(
      'Type de rapport 0x07 inconnu d’un R718A (0x01 attendu pour les mesures).',
    );
    expect(errorOf(decode('netvox-r718a', '010B012409EA1A90000000', 1))).toContain('Port LoRaWAN 1 inattendu pour un R718A');
  });

  it('reads the version report (maker example) as a frame without measure', () => {
    // TheThingsNetwork/lorawan-devices, vendor/netvox/r718a-codec.yaml, « Startup version report ».
    const result = decode('netvox-r718a', '010B0064022020081100 00', 6);
    expect(readingsOf(result)).toEqual([]);
    expect(warningsOf(result)).toEqual(['Trame de version d’un R718A, sans mesure.']);
  });

  it('turns the low-battery bit into a warning', () => {
    const result = decode('netvox-r718a', '01 0B 01 A0 F63C 1194 000000', 6);
    expect(readingsOf(result)).toEqual([{ ts: null, values: { temperature: -25, humidity: 45, battery: 64 } }]);
    expect(warningsOf(result)).toEqual(['Le R718A signale une pile faible.']);
  });
});

describe('Cayenne LPP', () => {
  it('refuses a frame too short or of an unknown type', () => {
    expect(errorOf(decode('cayenne-lpp', '0367', 1))).toBe(`Trame Cayenne LPP trop courte${NNBSP}: 2 octets reçus, 3 au moins attendus.`);
    expect(errorOf(decode('cayenne-lpp', '01FF00', 1))).toContain('Type Cayenne 0xFF inconnu sur le canal 1');
  });

  it('keeps the values read before a truncated field', () => {
    const result = decode('cayenne-lpp', '0367 0110 0567 00', 1);
    expect(readingsOf(result)).toEqual([{ ts: null, values: { temperature: 27.2 } }]);
    expect(warningsOf(result)).toEqual([`Trame Cayenne LPP tronquée${NNBSP}: le type 0x67 du canal 5 annonce 2 octets, 1 reçu.`]);
  });
});

describe('Dragino LHT65N and LHT52', () => {
  it('reads the LHT65N’s sensor type in bits 3–0 only, where the LHT65 reads bits 5–0', () => {
    // Ext 0x11: bit 4 set beside type 0x01; an LHT65N reads its DS18B20, an LHT65 an unknown type 0x11.
    expect(readingsOf(decode('dragino-lht65n', 'CBF6 0B0D 0376 11 0ADD 7FFF', 2))).toEqual([
      { ts: null, values: { battery: 51, temperature: 28.29, humidity: 88.6, probe_temperature: 27.81 } },
    ]);
    expect(warningsOf(decode('dragino-lht65', 'CBF6 0B0D 0376 11 0ADD 7FFF', 2))).toEqual([
      `Capteur externe de type 0x11 inconnu d’un LHT65${NNBSP}: seules les mesures intégrées sont lues.`,
    ]);
  });

  it('refuses a short LHT52 frame; its other ports carry no measure; an unset clock dates the reading at reception', () => {
    expect(errorOf(decode('dragino-lht52', '08CD0220', 2))).toBe(
      `Trame trop courte pour un LHT52${NNBSP}: 4 octets reçus, 11 au moins attendus.`,
    );
    expect(readingsOf(decode('dragino-lht52', '28FF0000000000000000', 4))).toEqual([]);
    expect(readingsOf(decode('dragino-lht52', '08CD0220', 3))).toEqual([]);
    const unset = decode('dragino-lht52', '08CD 0220 7FFF 01 00000010', 2);
    expect(readingsOf(unset)).toEqual([{ ts: null, values: { temperature: 22.53, humidity: 54.4 } }]);
    expect(warningsOf(unset)[0]).toContain('Horodatage de l’appareil invalide (16\u00A0s depuis 1970');
  });
});

describe('Adeunis TEMP', () => {
  it('refuses a short frame and an unknown frame code; configuration frames carry no measure', () => {
    expect(errorOf(decode('adeunis-temp', '57', 1))).toBe(
      `Trame trop courte pour un Adeunis TEMP${NNBSP}: 1 octet reçu, 2 au moins attendus.`,
    );
    expect(errorOf(decode('adeunis-temp', '5796 01B3 FF9C', 1))).toBe(
      `Trame trop courte pour un Adeunis TEMP${NNBSP}: 6 octets reçus, 10 au moins attendus.`,
    );
    expect(errorOf(decode('adeunis-temp', '4220 0001', 1))).toBe(
      'Trame Adeunis TEMP de code 0x42 inconnue (0x57, 0x30 ou 0x58 attendu pour les mesures).',
    );
    expect(warningsOf(decode('adeunis-temp', '3720 020304 010203', 1))).toEqual([
      'Trame de versions du logiciel d’un Adeunis TEMP, sans mesure.',
    ]);
  });

  it('dates a reading whose device time cannot be right at its reception', () => {
    const result = decode('adeunis-temp', '30 24 002A 00000000', 1);
    expect(readingsOf(result)).toEqual([{ ts: null, values: { temperature: 4.2 } }]);
    expect(warningsOf(result)[0]).toContain('Horodatage de l’appareil invalide (0\u00A0s depuis 2013');
  });
});

describe('Laird RS1xx', () => {
  it('refuses a message of the wrong length or an unknown type', () => {
    expect(errorOf(decode('laird-rs1xx', '01 00 2134 4362 05', 1))).toBe(`Message RS1xx de mesure de 7 octets${NNBSP}: 11 attendus.`);
    expect(errorOf(decode('laird-rs1xx', '02 00 00 0000 05 02 00000000 2134 4362', 1))).toBe(
      `Message RS1xx de mesures groupées de 15 octets${NNBSP}: 19 (11 + 4 par mesure) attendus.`,
    );
    expect(errorOf(decode('laird-rs1xx', '09 00 01', 1))).toBe(
      'Message RS1xx de type 0x09 inconnu (0x01 à 0x04 attendu pour les mesures).',
    );
  });

  it('keeps a battery capacity it does not know out', () => {
    expect(readingsOf(decode('laird-rs1xx', '01 00 0032 0004 09 0000 0000', 1))).toEqual([
      { ts: null, values: { humidity: 50, temperature: 4 } },
    ]);
  });
});

describe('Browan TBHV110, Milesight EM300-DI and EM500-PT100, Elsys EMS', () => {
  it('reads an all-zero TBHV110 frame as empty, and refuses a short one', () => {
    expect(warningsOf(decode('browan-tbhv110', '0000000000000000000000', 103))).toEqual(['Trame vide d’un TBHV110, sans mesure.']);
    expect(errorOf(decode('browan-tbhv110', '610B351E', 103))).toBe(
      `Trame trop courte pour un TBHV110${NNBSP}: 4 octets reçus, 11 au moins attendus.`,
    );
  });

  it('reads only each Milesight model’s own channels', () => {
    expect(errorOf(decode('milesight-em500-pt100', '046865', 85))).toContain('Canal 0x04 0x68 inconnu d’un EM500-PT100');
    expect(errorOf(decode('milesight-em300-th', '05C800010000', 85))).toContain('Canal 0x05 0xC8 inconnu d’un EM300-TH');
  });

  it('leaves out what an ERS reads but an EMS does not have, and the other way round', () => {
    expect(readingsOf(decode('elsys-ems', '0100E2 040027 0506', 1))).toEqual([{ ts: null, values: { temperature: 22.6 } }]);
    expect(readingsOf(decode('elsys-ers', '0100E2 0A1101 0D01', 5))).toEqual([{ ts: null, values: { temperature: 22.6 } }]);
  });
});

/** Mulberry32: a small seeded generator, so that a failing frame can be found again. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PORTS: Record<string, number[]> = {
  'milesight-em300-th': [85],
  'milesight-em300-mcs': [85],
  'milesight-em300-di': [85],
  'milesight-em500-pt100': [85],
  'elsys-ers': [5],
  'elsys-ems': [1],
  'dragino-lht65': [2, 3, 5],
  'dragino-lht65n': [2, 3, 5],
  'dragino-lht52': [2, 3, 4, 5],
  'adeunis-temp': [1],
  'browan-tbhv110': [103, 204, 222],
  'laird-rs1xx': [1],
  'browan-tbhh100': [103, 204, 222],
  'browan-tbdw100': [100, 204, 222],
  'netvox-r718a': [6, 7],
  'cayenne-lpp': [1],
};

/** The measure a value's key names: itself, or a Cayenne key with its channel (`temperature_5`). */
const measureOf = (codec: Codec, key: string): string | undefined =>
  codec.measures.includes(key) ? key : codec.measures.find((measure) => new RegExp(`^${measure}_\\d+$`).test(key));

function checkResult(codec: Codec, result: CodecResult, frame: string): void {
  if (!result.ok) {
    expect(typeof result.error, frame).toBe('string');
    expect(result.error.length, frame).toBeGreaterThan(0);
    return;
  }
  for (const warning of result.warnings) expect(typeof warning, frame).toBe('string');
  for (const reading of result.readings) {
    if (reading.ts !== null) expect(Number.isFinite(reading.ts.getTime()), frame).toBe(true);
    expect(Object.keys(reading.values).length, frame).toBeGreaterThan(0);
    for (const [key, value] of Object.entries(reading.values)) {
      expect(measureOf(codec, key), `${frame}: ${key}`).toBeDefined();
      expect(Number.isFinite(value), `${frame}: ${key} = ${value}`).toBe(true);
      // No float noise: the value reads back the same with 12 significant digits.
      expect(Number(value.toPrecision(12)), `${frame}: ${key} = ${value}`).toBe(value);
    }
  }
}

describe('fuzzing', () => {
  it.each(CODECS.map((codec) => [codec.id, codec] as const))(
    '%s: 2 000 random frames never throw and give only finite numbers',
    (id, codec) => {
      const random = prng([...id].reduce((hash, char) => Math.imul(hash, 31) + char.charCodeAt(0), 7));
      const ports = PORTS[id] ?? [1];
      for (let n = 0; n < 2000; n++) {
        const bytes = new Uint8Array(Math.floor(random() * 65));
        for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
        // Mostly the codec's own ports, so that its parsers are reached; sometimes any port.
        const fPort = random() < 0.85 ? (ports[Math.floor(random() * ports.length)] ?? 1) : Math.floor(random() * 256);
        const recvTime = new Date(Date.UTC(2021, 0, 19) + Math.floor(random() * 4 * 365 * 86_400_000));
        const frame = `${Buffer.from(bytes).toString('hex')} on port ${fPort}`;
        let result: CodecResult | undefined;
        expect(() => (result = codec.decode({ bytes, fPort, recvTime })), frame).not.toThrow();
        if (result) checkResult(codec, result, frame);
      }
    },
  );

  it.each(Object.entries(FIXTURES))('%s: example frames cut, extended and with bytes changed never throw', (id, fixtures) => {
    const codec = codecById(id);
    if (!codec) throw new Error(`no codec ${id}`);
    const random = prng(id.length * 7919);
    for (const fixture of fixtures) {
      const original = bytesOf(fixture.hex);
      for (let n = 0; n < 300; n++) {
        const length = Math.max(0, original.length + Math.floor(random() * 9) - 4);
        const bytes = new Uint8Array(length);
        for (let i = 0; i < length; i++)
          bytes[i] = random() < 0.15 ? Math.floor(random() * 256) : (original[i] ?? Math.floor(random() * 256));
        const frame = `${Buffer.from(bytes).toString('hex')} on port ${fixture.fPort}`;
        let result: CodecResult | undefined;
        expect(() => (result = codec.decode({ bytes, fPort: fixture.fPort, recvTime: RECEIVED })), frame).not.toThrow();
        if (result) checkResult(codec, result, frame);
      }
    }
  });

  it('a codec given no bytes answers with an error', () => {
    for (const codec of CODECS) {
      const result = codec.decode({ bytes: undefined as unknown as Uint8Array, fPort: 1, recvTime: RECEIVED });
      expect(result.ok).toBe(false);
    }
  });
});

describe('suggestCodec', () => {
  it('maps The Things Stack device repository ids to a codec', () => {
    expect(suggestCodec({ brand_id: 'milesight-iot', model_id: 'em300-th' })).toBe('milesight-em300-th');
    expect(suggestCodec({ brand_id: 'milesight-iot', model_id: 'em300-mcs' })).toBe('milesight-em300-mcs');
    expect(suggestCodec({ brand_id: 'dragino', model_id: 'lht65' })).toBe('dragino-lht65');
    expect(suggestCodec({ brand_id: 'dragino', model_id: 'lht65n' })).toBe('dragino-lht65n');
    expect(suggestCodec({ brand_id: 'dragino', model_id: 'lht52' })).toBe('dragino-lht52');
    expect(suggestCodec({ brand_id: 'adeunis', model_id: 'temp' })).toBe('adeunis-temp');
    expect(suggestCodec({ brand_id: 'elsys', model_id: 'ems-door' })).toBe('elsys-ems');
    expect(suggestCodec({ brand_id: 'milesight-iot', model_id: 'em300-di' })).toBe('milesight-em300-di');
    expect(suggestCodec({ brand_id: 'milesight-iot', model_id: 'em500-pt100' })).toBe('milesight-em500-pt100');
    expect(suggestCodec({ brand_id: 'laird', model_id: 'rs1xx-temp-rh-sensor' })).toBe('laird-rs1xx');
    expect(suggestCodec({ brand_id: 'browan', model_id: 'tbhv110' })).toBe('browan-tbhv110');
    expect(suggestCodec({ brand_id: 'elsys', model_id: 'ers' })).toBe('elsys-ers');
    expect(suggestCodec({ brand_id: 'elsys', model_id: 'ers-co2' })).toBe('elsys-ers');
    expect(suggestCodec({ brand_id: 'elsys', model_id: 'ers-lite' })).toBe('elsys-ers');
    expect(suggestCodec({ brand_id: 'browan', model_id: 'tbhh100' })).toBe('browan-tbhh100');
    expect(suggestCodec({ brand_id: 'browan', model_id: 'tbdw100' })).toBe('browan-tbdw100');
    expect(suggestCodec({ brand_id: 'netvox', model_id: 'r718a' })).toBe('netvox-r718a');
    expect(suggestCodec({ brand_id: ' Milesight-IoT ', model_id: 'EM300-TH' })).toBe('milesight-em300-th');
  });

  it('returns null for unknown or missing ids', () => {
    expect(suggestCodec({ brand_id: 'milesight-iot', model_id: 'am307' })).toBeNull();
    expect(suggestCodec({ brand_id: 'dragino', model_id: 'lht22' })).toBeNull();
    expect(suggestCodec({ brand_id: 'acme', model_id: 'em300-th' })).toBeNull();
    expect(suggestCodec({ brand_id: 'constructor', model_id: 'x' })).toBeNull();
    expect(suggestCodec({ brand_id: 'browan', model_id: 'toString' })).toBeNull();
    expect(suggestCodec({ brand_id: 'elsys' })).toBeNull();
    expect(suggestCodec({ model_id: 'em300-th' })).toBeNull();
    expect(suggestCodec({})).toBeNull();
    expect(suggestCodec(null)).toBeNull();
    expect(suggestCodec(undefined)).toBeNull();
  });
});
