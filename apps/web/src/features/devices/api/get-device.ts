import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { withFallbackMessage } from '@/lib/errors';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';

/** GET /api/emitter/:id or /api/sensor/:id. */
export async function getDevice(kind: DeviceKind, id: string, token: string | null, signal?: AbortSignal): Promise<Device> {
  const config = DEVICE_KINDS[kind];
  const data = await withFallbackMessage(
    api.get<Partial<Record<string, unknown>> | undefined>(`${config.path}/${encodeURIComponent(id)}`, { token, signal }),
    config.fallbacks.one,
  );
  const device = data?.[config.itemField];
  if (!device || typeof device !== 'object') throw new Error('Error loading data');
  return device as Device;
}

export function deviceQueryOptions(kind: DeviceKind, id: string, token: string | null, owner: string) {
  return queryOptions({
    queryKey: deviceKeys.detail(kind, owner, id),
    queryFn: ({ signal }) => getDevice(kind, id, token, signal),
    enabled: Boolean(token),
  });
}

export function useDevice(kind: DeviceKind, id: string, token: string | null, owner: string) {
  return useQuery(deviceQueryOptions(kind, id, token, owner));
}
