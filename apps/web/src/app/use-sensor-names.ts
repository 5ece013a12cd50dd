import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { getDevice } from '@/features/devices/api/get-device';
import { useDevices } from '@/features/devices/api/get-devices';
import { deviceDisplayName, deviceKeys, type Device } from '@/features/devices/device-kinds';
import { useOwner } from '@/lib/auth';

/** A sensor's display name by id, from the sensors list (loaded once, kept live by the stream). */
export function useSensorNames(): (sensorId: string) => string {
  const { data } = useDevices({ kind: 'sensor' });
  return useCallback(
    (sensorId: string) => {
      const sensor = data?.find((device) => device.id === sensorId);
      return sensor ? deviceDisplayName(sensor) : 'Capteur supprimé';
    },
    [data],
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
export function useSensorNameLookup(): (sensorId: string) => string | null {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useCallback(
    (sensorId: string) => {
      const list = queryClient.getQueryData<Device[]>(deviceKeys.list('sensor', owner));
      const sensor = list?.find((device) => device.id === sensorId);
      return sensor ? deviceDisplayName(sensor) : null;
    },
    [queryClient, owner],
  );
}

/**
 * The same, for a live event on a page that has not loaded the sensors list: read from the cache
 * when it is there, asked of the server otherwise; null when the sensor cannot be read (deleted).
 */
export function useSensorNameFetch(): (sensorId: string) => Promise<string | null> {
  const lookup = useSensorNameLookup();
  return useCallback(
    async (sensorId: string) => {
      const known = lookup(sensorId);
      if (known) return known;
      try {
        return deviceDisplayName(await getDevice({ kind: 'sensor', id: sensorId }));
      } catch {
        return null;
      }
    },
    [lookup],
  );
}
