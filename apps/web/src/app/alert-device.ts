import type { Alert, DeviceKind } from '@vigie/contract';
import { deviceDetailPath } from '@/features/devices/device-paths';
import type { CameFrom, CameFromState } from '@/lib/came-from';

/** The kind of device an alert is about: a transmitter when the alert says so, a sensor otherwise. */
export function alertDeviceKind(alert: Pick<Alert, 'deviceKind'>): DeviceKind {
  return alert.deviceKind ?? 'sensor';
}

/**
 * The link from an alert to the page of its device — the sensor's, or the transmitter's for a
 * silent transmitter — whose breadcrumb leads back to `from`; null when the lists no longer hold
 * the device (it was deleted).
 */
export function alertDeviceLink(
  alert: Pick<Alert, 'sensorId' | 'deviceKind'>,
  listed: (kind: DeviceKind, id: string) => boolean,
  from: CameFrom,
): { to: string; state: CameFromState } | null {
  const kind = alertDeviceKind(alert);
  if (!alert.sensorId) return null;
  return listed(kind, alert.sensorId) ? { to: deviceDetailPath(kind, alert.sensorId), state: { from } } : null;
}
