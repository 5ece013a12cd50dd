import { useQueryClient } from '@tanstack/react-query';
import type { DeviceKind } from '@vigie/contract';
import { useCallback } from 'react';
import { getDevice } from '@/features/devices/api/get-device';
import { useDevices } from '@/features/devices/api/get-devices';
import { deviceDisplayName, deviceKeys, type Device } from '@/features/devices/device-kinds';
import { useOwner } from '@/lib/auth';

/** What a device is called once the lists no longer hold it. */
export function deletedDeviceName(kind: DeviceKind = 'sensor'): string {
  return kind === 'emitter' ? 'Émetteur supprimé' : 'Capteur supprimé';
}

/**
 * A device's display name by id — a sensor's, or a transmitter's when `kind` says so (an alert
 * about a silent transmitter) — from the lists (loaded once, kept live by the stream).
 */
export function useSensorNames(): (sensorId: string, kind?: DeviceKind) => string {
  const sensors = useDevices({ kind: 'sensor' }).data;
  const emitters = useDevices({ kind: 'emitter' }).data;
  return useCallback(
    (sensorId: string, kind: DeviceKind = 'sensor') => {
      const device = (kind === 'emitter' ? emitters : sensors)?.find((candidate) => candidate.id === sensorId);
      return device ? deviceDisplayName(device) : deletedDeviceName(kind);
    },
    [sensors, emitters],
  );
}

/** A sensor's latest reading of a measure, from the same list (kept live by the stream); null when none. */
export function useSensorReadings(): (sensorId: string, key: string) => { value: number; ts: string } | null {
  const { data } = useDevices({ kind: 'sensor' });
  return useCallback(
    (sensorId: string, key: string) => {
      const latest = data?.find((device) => device.id === sensorId)?.latest?.[key];
      return latest ? { value: latest.value, ts: latest.ts } : null;
    },
    [data],
  );
}

/** The same, read from the cache at the moment of a live event (no subscription). */
export function useSensorNameLookup(): (sensorId: string, kind?: DeviceKind) => string | null {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useCallback(
    (sensorId: string, kind: DeviceKind = 'sensor') => {
      const list = queryClient.getQueryData<Device[]>(deviceKeys.list(kind, owner));
      const device = list?.find((candidate) => candidate.id === sensorId);
      return device ? deviceDisplayName(device) : null;
    },
    [queryClient, owner],
  );
}

/**
 * The same, for a live event on a page that has not loaded the sensors list: read from the cache
 * when it is there, asked of the server otherwise; null when the sensor cannot be read (deleted).
 */
export function useSensorNameFetch(): (sensorId: string, kind?: DeviceKind) => Promise<string | null> {
  const lookup = useSensorNameLookup();
  return useCallback(
    async (sensorId: string, kind: DeviceKind = 'sensor') => {
      const known = lookup(sensorId, kind);
      if (known) return known;
      try {
        return deviceDisplayName(await getDevice({ kind, id: sensorId }));
      } catch {
        return null;
      }
    },
    [lookup],
  );
}
