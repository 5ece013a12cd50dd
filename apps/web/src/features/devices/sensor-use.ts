import { DoorOpen, Droplets, Footprints, Radar, Refrigerator, Snowflake, Thermometer, Wind, type LucideIcon } from 'lucide-react';
import type { Device } from './device-kinds';

/** What a sensor watches, as a shop reads it at a glance: its card's icon and the word beside it. */
export type SensorUse = 'fridge' | 'freezer' | 'door' | 'footfall' | 'air' | 'humidity' | 'ambient' | 'other';

export const SENSOR_USES: Record<SensorUse, { icon: LucideIcon; label: string; tone: string }> = {
  fridge: { icon: Refrigerator, label: 'Froid positif', tone: 'from-cyan-400/25 to-sky-500/10 text-cyan-200' },
  freezer: { icon: Snowflake, label: 'Surgelés', tone: 'from-sky-400/25 to-cyan-500/10 text-sky-200' },
  door: { icon: DoorOpen, label: 'Porte', tone: 'from-amber-400/20 to-amber-500/5 text-amber-200' },
  footfall: { icon: Footprints, label: 'Fréquentation', tone: 'from-emerald-400/20 to-emerald-500/5 text-emerald-200' },
  air: { icon: Wind, label: 'Qualité de l’air', tone: 'from-teal-400/20 to-emerald-500/5 text-teal-200' },
  humidity: { icon: Droplets, label: 'Humidité', tone: 'from-sky-400/20 to-sky-500/5 text-sky-200' },
  ambient: { icon: Thermometer, label: 'Ambiance', tone: 'from-violet-400/25 to-fuchsia-500/10 text-violet-200' },
  other: { icon: Radar, label: 'Capteur', tone: 'from-violet-400/25 to-fuchsia-500/10 text-violet-200' },
};

const DOOR_KEYS = ['open', 'door', 'contact'];
const FOOTFALL_KEYS = ['visitors', 'footfall', 'people', 'count', 'counter'];
const AIR_KEYS = ['co2', 'voc', 'tvoc', 'pm25', 'pm2_5', 'pm10', 'iaq'];

/**
 * A sensor's use, from what it measures and the temperature it is held to: a cold limit of −10 °C
 * or below is a freezer's, one of +10 °C or below a fridge's. Without a limit, its latest
 * temperature says it (a freezer never reads −10 °C in service, a room never +10 °C or less);
 * a temperature above that is the room's.
 */
export function sensorUse(device: Pick<Device, 'latest'>, temperatureLimit?: number | null): SensorUse {
  const keys = Object.keys(device.latest ?? {});
  if (keys.some((key) => DOOR_KEYS.includes(key))) return 'door';
  if (keys.some((key) => FOOTFALL_KEYS.includes(key))) return 'footfall';
  if (keys.some((key) => AIR_KEYS.includes(key))) return 'air';
  const cold = temperatureLimit ?? device.latest?.temperature?.value ?? null;
  if (cold !== null && cold !== undefined && (keys.includes('temperature') || temperatureLimit !== undefined)) {
    if (cold <= -10) return 'freezer';
    if (cold <= 10) return 'fridge';
    return 'ambient';
  }
  if (keys.includes('humidity')) return 'humidity';
  return 'other';
}
