import { DEFAULT_TIMEZONE } from '@vigie/contract';
import { localMonth, monthOf } from './lib/local-time.ts';
import type { ReadingRow, ReadingTouch } from './modules/telemetry/reading-writer.ts';
import type { Services } from './services.ts';
import { DEMO_CODE, DEMO_FAILING_SERIAL, DEMO_FRIDGE_SERIAL, DEMO_SENSOR_COUNT, demoFaults } from './simulator/demo-shop.ts';
import { measure, shopSensors } from './simulator/shop-model.ts';

export const DEMO_ACCOUNT = {
  email: 'demo@vigie.fr',
  password: 'vigie-demo-2024',
  name: 'Camille Martin',
  organizationName: 'Démo Boutique',
} as const;

/** The demo shows a week at least, even on the 1st of the month, as the README says. */
const HISTORY_DAYS = 7;
/** The last week, which the predictive analysis learns from, has a reading a minute, as real sensors send. */
const RECENT_DAYS = 7;
const HISTORY_STEP_SECONDS = 60;
/** Older history is sparser (still within the sensors' 10-minute inactivity timeout): the seed stays quick. */
const OLD_HISTORY_STEP_SECONDS = 600;

/**
 * Where the demo history starts: the 1st of the current month in Paris (so the month's HACCP
 * report has a whole month behind it), and at least seven days back, every minute of them.
 */
export function historyStart(now: number): number {
  const month = monthOf(localMonth(now, DEFAULT_TIMEZONE), DEFAULT_TIMEZONE);
  return Math.min(month.from, now - HISTORY_DAYS * 86_400_000);
}

/**
 * On an empty database, creates the demo account and a small shop (a transmitter and seven
 * sensors) with realistic history since the start of the month (the last seven days at least, a reading a minute), so charts are never empty. Returns whether it did.
 */
export async function seedDemo(services: Services, now = Date.now()): Promise<boolean> {
  if (!(await services.users.isEmpty())) return false;
  const user = await services.users.createAccount(DEMO_ACCOUNT);
  const organizationId = user.organization.id;

  const { device: gateway } = await services.devices.emitter.create(organizationId, {
    name: 'Passerelle magasin',
    serial: `${DEMO_CODE}-GW01`,
    model: 'Vigie Passerelle G1',
  });
  const rows: ReadingRow[] = [];
  const touches: ReadingTouch[] = [{ deviceId: gateway.id, kind: 'emitter', battery: null, emitterId: null }];
  for (const sensor of shopSensors(DEMO_CODE, DEMO_SENSOR_COUNT)) {
    const { device } = await services.devices.sensor.create(organizationId, {
      name: sensor.name,
      serial: sensor.serial,
      model: sensor.model,
    });
    let battery: number | null = null;
    const recent = now - RECENT_DAYS * 86_400_000;
    for (let t = historyStart(now); t <= now; t += (t < recent ? OLD_HISTORY_STEP_SECONDS : HISTORY_STEP_SECONDS) * 1000) {
      const ts = new Date(t);
      const step = t < recent ? OLD_HISTORY_STEP_SECONDS : HISTORY_STEP_SECONDS;
      for (const [key, raw] of Object.entries(measure(sensor, t, step, demoFaults(sensor.serial, now)))) {
        const value = typeof raw === 'boolean' ? Number(raw) : raw;
        if (key === 'battery') battery = value;
        rows.push({ deviceId: device.id, key, ts, value, readingId: null });
      }
    }
    touches.push({ deviceId: device.id, kind: 'sensor', battery, emitterId: gateway.id });
  }
  for (let i = 0; i < rows.length; i += 5000) await services.telemetry.store(rows.slice(i, i + 5000), []);
  await services.telemetry.store([], touches);

  await watchDemoColdChain(services, organizationId);
  return true;
}

/** The demo shop's cold chain is watched from the start, with the regulation's limits. */
export async function watchDemoColdChain(services: Services, organizationId: string): Promise<void> {
  // Ten minutes of delay on the freezer: a door opened for a delivery is not a failure.
  const watched = [
    {
      serial: DEMO_FRIDGE_SERIAL,
      name: 'Vitrine réfrigérée – denrées périssables',
      preset: 'chilled_perishable',
      delaySeconds: 60,
      hysteresis: 0.5,
    },
    { serial: 'DEMO-S002', name: 'Congélateur – surgelés', preset: 'frozen', delaySeconds: 600, hysteresis: 1 },
    {
      serial: DEMO_FAILING_SERIAL,
      name: 'Meuble frais – denrées périssables',
      preset: 'chilled_perishable',
      delaySeconds: 300,
      hysteresis: 0.5,
    },
  ] as const;
  for (const { serial, ...rule } of watched) {
    const sensor = await services.devices.sensor.findByReference(organizationId, serial);
    if (sensor) await services.alerts.rules.create(organizationId, { ...rule, sensorId: sensor.id });
  }
  // Every unit of the shop that falls silent past its inactivity limit raises a warning: a sensor out of battery is never silent for nothing.
  const [shop] = await services.sites.list(organizationId);
  if (shop) {
    await services.alerts.rules.create(organizationId, {
      name: 'Appareil muet',
      siteId: shop.id,
      condition: { type: 'offline' },
      severity: 'warning',
    });
  }
  // « Dépassement prévu » on the chilled cabinet: a warning while there is still time to move the stock.
  const cabinet = await services.devices.sensor.findByReference(organizationId, DEMO_FAILING_SERIAL);
  if (cabinet) {
    await services.alerts.rules.create(organizationId, {
      name: 'Meuble frais – dépassement prévu de +8 °C',
      sensorId: cabinet.id,
      condition: { type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 120 },
      severity: 'warning',
    });
  }
}
