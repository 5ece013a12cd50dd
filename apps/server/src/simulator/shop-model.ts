/**
 * A small, deterministic model of a shop's sensors: the same serial and instant always give the
 * same values, so a history generated at start-up and a live simulator agree with each other.
 */

export type SensorProfile = 'fridge' | 'freezer' | 'room' | 'door' | 'footfall' | 'air';

export interface SimulatedSensor {
  serial: string;
  name: string;
  model: string;
  profile: SensorProfile;
}

const PROFILES: { profile: SensorProfile; name: string; model: string }[] = [
  { profile: 'fridge', name: 'Vitrine réfrigérée', model: 'Vigie Froid T1' },
  { profile: 'freezer', name: 'Congélateur', model: 'Vigie Froid T1' },
  { profile: 'room', name: 'Surface de vente', model: 'Vigie Ambiance TH2' },
  { profile: 'door', name: 'Porte de la chambre froide', model: 'Vigie Contact C1' },
  { profile: 'footfall', name: 'Compteur de passage', model: 'Vigie Flux F1' },
  { profile: 'air', name: 'Qualité de l’air', model: 'Vigie Air Q1' },
  { profile: 'fridge', name: 'Meuble frais', model: 'Vigie Froid T1' },
  { profile: 'fridge', name: 'Chambre froide', model: 'Vigie Froid T1' },
];

/** The sensors of a shop: fridges first, then the rest of the store, numbered when repeated. */
export function shopSensors(shopCode: string, count: number): SimulatedSensor[] {
  const seen = new Map<string, number>();
  return Array.from({ length: count }, (_, index) => {
    const base = PROFILES[index % PROFILES.length] as (typeof PROFILES)[number];
    const n = (seen.get(base.name) ?? 0) + 1;
    seen.set(base.name, n);
    return {
      serial: `${shopCode}-S${String(index + 1).padStart(3, '0')}`,
      name: n > 1 ? `${base.name} ${n}` : base.name,
      model: base.model,
      profile: base.profile,
    };
  });
}

/** A repeatable pseudo-random number in [0, 1) for a text and an integer. */
export function noise(seed: string, n: number): number {
  let h = 2166136261 ^ n;
  for (let i = 0; i < seed.length; i += 1) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  h = Math.imul(h ^ (h >>> 15), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Fraction of the day in Paris time, 0 at midnight. */
function dayFraction(t: number): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Paris',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(new Date(t));
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return (hour * 60 + minute) / 1440;
}

/** Shop opening hours: 9:00–19:30, busiest at lunch and after work. */
function occupancy(t: number): number {
  const h = dayFraction(t) * 24;
  if (h < 9 || h > 19.5) return 0;
  return 0.35 + 0.65 * Math.max(Math.exp(-((h - 12.5) ** 2) / 1.5), Math.exp(-((h - 17.8) ** 2) / 1.2));
}

/** Battery in percent: each sensor is somewhere in a 150-day life, losing about 0.5 point a day. */
function battery(sensor: SimulatedSensor, t: number): number {
  const age = (t / 86_400_000 + noise(sensor.serial, 0) * 150) % 150;
  return Math.round(Math.max(3, 100 - age * 0.5 - noise(sensor.serial, 1) * 10) * 10) / 10;
}

/** The values a sensor reports at instant t (epoch ms), for a reading every `stepSeconds`. */
export function measure(sensor: SimulatedSensor, t: number, stepSeconds: number): Record<string, number | boolean> {
  const minute = Math.floor(t / 60_000);
  const jitter = (amplitude: number, salt = 0) => (noise(sensor.serial, minute * 7 + salt) - 0.5) * 2 * amplitude;
  const busy = occupancy(t);
  // Door openings: more often when the shop is busy; each one warms the cold for a few minutes.
  const doorOpen = noise(sensor.serial, Math.floor(t / 180_000)) < busy * 0.25;
  const compressor = Math.sin((2 * Math.PI * t) / (22 * 60_000));
  const values: Record<string, number | boolean> = {};
  switch (sensor.profile) {
    case 'fridge':
      values['temperature'] = round(3.6 + 0.9 * compressor + (doorOpen ? 2.4 : 0) + jitter(0.15));
      break;
    case 'freezer':
      values['temperature'] = round(-21 + 1.1 * compressor + (doorOpen ? 1.5 : 0) + jitter(0.2));
      break;
    case 'room': {
      const daily = Math.sin(2 * Math.PI * (dayFraction(t) - 0.3));
      values['temperature'] = round(20 + 1.5 * daily + busy * 0.8 + jitter(0.2));
      values['humidity'] = round(47 - 5 * daily + jitter(1));
      break;
    }
    case 'door':
      values['open'] = doorOpen;
      break;
    case 'footfall':
      values['visitors'] = Math.round(busy * (stepSeconds / 60) * (1.2 + noise(sensor.serial, minute) * 1.6));
      break;
    case 'air':
      values['co2'] = Math.round(430 + busy * 650 + jitter(25));
      values['temperature'] = round(20.5 + busy + jitter(0.2));
      break;
  }
  values['battery'] = battery(sensor, t);
  return values;
}

const round = (value: number) => Math.round(value * 100) / 100;
