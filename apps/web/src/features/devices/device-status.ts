import type { DeviceStatus } from '@vigie/contract';
import type { Device } from './device-kinds';

/**
 * The status to show at `now`: the server's, corrected by the client's own clock so that a
 * device that falls silent shows « Hors ligne » as soon as its inactivity delay has passed,
 * even before the server's status event arrives.
 */
export function deviceStatusAt(device: Pick<Device, 'status' | 'lastSeenAt' | 'inactivityTimeoutSeconds'>, now: number): DeviceStatus {
  if (!device.lastSeenAt) return device.status === 'never' || !device.status ? 'never' : device.status;
  const seen = Date.parse(device.lastSeenAt);
  if (Number.isNaN(seen)) return device.status ?? 'never';
  const timeout = (device.inactivityTimeoutSeconds ?? 600) * 1000;
  return now - seen > timeout ? 'offline' : 'online';
}

export const STATUS_LABELS: Record<DeviceStatus, string> = {
  online: 'En ligne',
  offline: 'Hors ligne',
  never: 'Jamais connecté',
};

/** Battery levels at or below this percentage are highlighted (the contract's, as the chain's overview counts them). */
export { LOW_BATTERY_PERCENT } from '@vigie/contract/values';

/**
 * A signal at or below this level is flagged on cards: a LoRaWAN sensor there is a few decibels
 * from losing its gateway (a door or a pallet in the way), a Wi-Fi one has already lost frames.
 */
export const WEAK_SIGNAL_DBM = -115;
