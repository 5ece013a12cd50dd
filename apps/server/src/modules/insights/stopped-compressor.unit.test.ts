import { describe, expect, it } from 'vitest';
import type { Rule } from '@vigie/contract';
import { computeInsights } from './insights-compute.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LIMIT = 8;

const rule: Rule = {
  id: '00000000-0000-4000-8000-000000000041',
  name: 'Température ≤ +8 °C',
  enabled: true,
  sensorId: '00000000-0000-4000-8000-000000000042',
  siteId: null,
  condition: { type: 'above', key: 'temperature', threshold: LIMIT },
  delaySeconds: 0,
  hysteresis: 0.5,
  schedule: 'always',
  severity: 'critical',
  preset: 'chilled_perishable',
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
};

/**
 * A fridge with a plain thermostat cycle between 2,5 and 4,5 °C and nothing else (no defrost, no
 * door): it warms toward the shop's air along Newton's law (time constant `tauHours`) and its
 * compressor pulls it down while it runs. From `stopAt` the compressor never starts again. The true
 * temperature every ten seconds.
 */
function plainFridge(from: number, to: number, stopAt: number, room: number, tauHours: number): { ts: number; value: number }[] {
  const natural = (temperature: number) => (room - temperature) / (tauHours * 360);
  const cooling = natural(3.5) / 0.45;
  let temperature = 3.5;
  let running = false;
  const out: { ts: number; value: number }[] = [];
  for (let ts = from; ts < to; ts += 10_000) {
    if (temperature >= 4.5) running = true;
    if (temperature <= 2.5) running = false;
    temperature += natural(temperature) - (running && ts < stopAt ? cooling : 0);
    out.push({ ts, value: temperature });
  }
  return out;
}

/**
 * A stopped compressor on a plain cycle, read at each cadence a sensor may report at: once two
 * readings stand clearly above anything the cycle reached (0,4 K above its top), the « dépassement
 * prévu » is there, its hour within max(30 min, half the time left) of the true crossing. The
 * reading of the bucket in progress counts: at 10 or 15 min it is often the one that tells.
 */
describe('a compressor that stopped on a fridge with a plain thermostat cycle', () => {
  const start = Date.parse('2026-11-10T00:00:00Z');
  const units = [
    { room: 19.8, tauHours: 6.4 },
    { room: 23.7, tauHours: 7.4 },
    { room: 18, tauHours: 4.6 },
  ];
  for (const cadence of [1, 5, 10, 15]) {
    it(`is foreseen with its hour at a ${cadence}-minute cadence`, () => {
      let judged = 0;
      units.forEach(({ room, tauHours }, u) => {
        for (const [k, offset] of [0, 17, 41].entries()) {
          const stopAt = start + 7 * DAY + (3 * u + k) * HOUR + offset * MINUTE;
          const truth = plainFridge(start, stopAt + 6 * HOUR, stopAt, room, tauHours);
          const crossing = truth.find((point) => point.ts > stopAt && point.value > LIMIT)?.ts ?? Number.NaN;
          // Readings rounded to 0,1 °C as sensors send them, a little noise, a few seconds off the beat.
          const sent = truth
            .filter((_, index) => index % (cadence * 6) === 0)
            .map((point, index) => ({
              ts: point.ts + ((index * 7919) % 11) * 1000,
              value: Math.round((point.value + (((index * 104_729) % 7) - 3) * 0.015) * 10) / 10,
            }));
          for (let now = stopAt + 30 * MINUTE; now <= stopAt + 50 * MINUTE; now += 7 * MINUTE) {
            const readings = sent.filter((reading) => reading.ts <= now && reading.ts > now - 7 * DAY);
            const last = readings.at(-1);
            const before = readings.at(-2);
            if (!last || !before || before.value < 4.9 || crossing - now < 20 * MINUTE) continue;
            judged += 1;
            const { insights } = computeInsights({
              key: 'temperature',
              now,
              readings: { ts: Float64Array.from(readings, (r) => r.ts), values: Float64Array.from(readings, (r) => r.value) },
              battery: { ts: new Float64Array(0), values: new Float64Array(0) },
              rules: [rule],
            });
            const at = `room ${room} °C, τ ${tauHours} h, ${Math.round((now - stopAt) / MINUTE)} min after the stop, last ${last.value} °C`;
            expect(insights.breach, at).not.toBeNull();
            const error = Math.abs(Date.parse(insights.breach?.eta ?? '') - crossing);
            expect(error, at).toBeLessThanOrEqual(Math.max(30 * MINUTE, (crossing - now) / 2));
          }
        }
      });
      expect(judged).toBeGreaterThanOrEqual(2);
    });
  }
});
