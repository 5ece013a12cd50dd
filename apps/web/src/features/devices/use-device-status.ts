import type { DeviceStatus } from '@vigie/contract';
import { useEffect, useState } from 'react';
import { useNow } from '@/hooks/use-now';
import type { Device } from './device-kinds';
import { deviceStatusAt } from './device-status';

type StatusFields = Pick<Device, 'status' | 'lastSeenAt' | 'inactivityTimeoutSeconds'>;

/**
 * The device's status now, and the clock used for ages: refreshed every 30 s and once more
 * right when the inactivity delay runs out, so « Hors ligne » shows on time.
 */
export function useDeviceStatus(device: StatusFields): { status: DeviceStatus; now: number } {
  const ticking = useNow();
  const [expiredAt, setExpiredAt] = useState(0);
  const now = Math.max(ticking, expiredAt);
  const seen = device.lastSeenAt ? Date.parse(device.lastSeenAt) : NaN;
  const deadline = Number.isNaN(seen) ? null : seen + device.inactivityTimeoutSeconds * 1000 + 500;

  useEffect(() => {
    if (deadline === null) return undefined;
    const wait = deadline - Date.now();
    if (wait <= 0 || wait > 2 ** 31 - 1) return undefined;
    const timer = setTimeout(() => setExpiredAt(Date.now()), wait);
    return () => clearTimeout(timer);
  }, [deadline]);

  // A reading newer than the last tick must not look older than it is.
  const effectiveNow = Number.isNaN(seen) ? now : Math.max(now, seen);
  return { status: deviceStatusAt(device, effectiveNow), now: effectiveNow };
}
