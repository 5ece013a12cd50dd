import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { withFallbackMessage } from '@/lib/errors';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';

/** GET /api/emitter or /api/sensor: the list under `emitters` / `sensors`. */
export async function getDevices(kind: DeviceKind, token: string | null, signal?: AbortSignal): Promise<Device[]> {
  const config = DEVICE_KINDS[kind];
  const data = await withFallbackMessage(
    api.get<Partial<Record<string, unknown>> | undefined>(config.path, { token, signal }),
    config.fallbacks.list,
  );
  const list = data?.[config.listField];
  if (!Array.isArray(list)) throw new Error('Error loading data');
  return list as Device[];
}

export function devicesQueryOptions(kind: DeviceKind, token: string | null, owner: string) {
  return queryOptions({
    queryKey: deviceKeys.list(kind, owner),
    queryFn: ({ signal }) => getDevices(kind, token, signal),
    enabled: Boolean(token),
  });
}

export function useDevices(kind: DeviceKind, token: string | null, owner: string) {
  return useQuery(devicesQueryOptions(kind, token, owner));
}
