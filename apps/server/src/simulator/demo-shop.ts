import type { TelemetryReading } from '@vigie/contract';
import type { Services } from '../services.ts';
import type { Fault } from './faults.ts';
import { measure, shopSensors, type SimulatedSensor } from './shop-model.ts';

/** The demo shop's code in serials (`DEMO-GW01`, `DEMO-S001`…), as the seed installed it. */
export const DEMO_CODE = 'DEMO';
export const DEMO_SENSOR_COUNT = 7;
/** The refrigerated display whose door is left open now and then. */
export const DEMO_FRIDGE_SERIAL = 'DEMO-S001';
/** The chilled cabinet (« Meuble frais ») whose compressor is failing. */
export const DEMO_FAILING_SERIAL = 'DEMO-S007';

const HOUR = 3600_000;
/**
 * The cabinet’s compressor started failing five hours before the server started: a person who
 * opens the demo sees it « À surveiller » (its cycles lengthen), then its +8 °C foreseen before its
 * alert opens, about an hour after the start. It is repaired eight hours after the start, and fails
 * again each day at that hour.
 */
export function demoFaults(serial: string, startedAt: number): Fault[] {
  if (serial !== DEMO_FAILING_SERIAL) return [];
  return Array.from({ length: 30 }, (_, day) => ({
    kind: 'compressor_failing' as const,
    from: startedAt - 5 * HOUR + day * 24 * HOUR,
    to: startedAt + 8 * HOUR + day * 24 * HOUR,
  }));
}

const AMBIENT = 12;
/** How fast the cabinet warms with its door open, and cools once it is closed (seconds). */
const WARMING_TAU = 180;
const COOLING_TAU = 120;

/** A door left open: when it starts after the server starts, how long it stays open, how often it happens. */
export interface DoorEpisodes {
  firstAfterMs: number;
  openMs: number;
  everyMs: number;
}

export const DEFAULT_EPISODES: DoorEpisodes = { firstAfterMs: 30_000, openMs: 8 * 60_000, everyMs: 40 * 60_000 };

/**
 * The fridge's temperature at `t` when its door was left open at times given by `episodes` from
 * `startedAt`: it warms towards the shop's air, then cools back once the door is shut. Outside an
 * episode and its recovery, the ordinary model's value stands.
 */
export function fridgeWithDoorLeftOpen(normal: number, t: number, startedAt: number, episodes: DoorEpisodes): number {
  const since = t - startedAt - episodes.firstAfterMs;
  if (since < 0) return normal;
  const into = since % episodes.everyMs;
  if (into < episodes.openMs) return normal + (AMBIENT - normal) * (1 - Math.exp(-into / 1000 / WARMING_TAU));
  const peak = normal + (AMBIENT - normal) * (1 - Math.exp(-episodes.openMs / 1000 / WARMING_TAU));
  const cooling = (into - episodes.openMs) / 1000;
  return normal + (peak - normal) * Math.exp(-cooling / COOLING_TAU);
}

/**
 * With the demo account, the demo shop keeps living while the server runs: its transmitter sends
 * its sensors' readings every `intervalMs` through the same path as a real device's message, and
 * now and then the display fridge's door is left open, which opens an alert and then resolves it,
 * and the chilled cabinet's compressor is failing (`demoFaults`).
 * Returns its controls, or null when there is no demo shop.
 */
export async function startDemoShop(
  services: Services,
  options: {
    organizationName: string;
    /** Milliseconds between two messages; 0 starts no timer (the caller calls `tick`). */
    intervalMs?: number;
    episodes?: DoorEpisodes;
    now?: () => number;
    logger: { info(msg: string): void; warn(obj: object, msg: string): void };
  },
): Promise<{ stop: () => void; tick: () => Promise<void> } | null> {
  const organization = await services.organizations.findByName(options.organizationName);
  if (!organization) return null;
  const gateway = await services.devices.emitter.findBySerial(organization.id, `${DEMO_CODE}-GW01`);
  if (!gateway || gateway.deletedAt) return null;
  const now = options.now ?? Date.now;
  const startedAt = now();
  // 0: no timer, the caller ticks (tests move their own clock).
  const intervalMs = options.intervalMs || 10_000;
  const episodes = options.episodes ?? DEFAULT_EPISODES;
  const sensors: SimulatedSensor[] = shopSensors(DEMO_CODE, DEMO_SENSOR_COUNT);
  const identity = { deviceId: gateway.id, kind: 'emitter' as const, organizationId: organization.id };

  const tick = async () => {
    const t = now();
    // A sensor the user moved to the trash stops sending; the others go on.
    const active: SimulatedSensor[] = [];
    for (const sensor of sensors) if (await services.devices.sensor.findByReference(organization.id, sensor.serial)) active.push(sensor);
    const readings: TelemetryReading[] = active.map((sensor) => {
      const values = measure(sensor, t, intervalMs / 1000, demoFaults(sensor.serial, startedAt));
      if (sensor.serial === DEMO_FRIDGE_SERIAL && typeof values['temperature'] === 'number') {
        values['temperature'] = Math.round(fridgeWithDoorLeftOpen(values['temperature'], t, startedAt, episodes) * 100) / 100;
      }
      return { sensor: sensor.serial, id: `${sensor.serial}-${t}`, ts: t, values };
    });
    readings.push({ id: `${gateway.id}-${t}`, ts: t, values: { rssi: -58 } });
    try {
      await services.telemetry.ingest(identity, readings);
    } catch (error) {
      options.logger.warn({ err: error }, 'Magasin de démonstration : envoi refusé');
    }
  };
  if (options.intervalMs === 0) return { stop: () => undefined, tick };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  options.logger.info('Magasin de démonstration en direct : ses capteurs envoient leurs lectures (DEMO_SIMULATOR=false pour l’arrêter).');
  return { stop: () => clearInterval(timer), tick };
}
