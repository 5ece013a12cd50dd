import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { withFallbackMessage } from '@/lib/errors';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.emitter.list or endpoints.sensor.list: the list under `emitters` / `sensors`. */
export async function getDevices({ kind, signal }: { kind: DeviceKind; signal?: AbortSignal }): Promise<Device[]> {
  const config = DEVICE_KINDS[kind];
  // Either kind's answer, read by the field of this kind.
  const data: Readonly<Record<string, unknown>> | undefined = await withFallbackMessage(
    call(endpoints[kind].list, { signal }),
    config.fallbacks.list,
  );
  const list = data?.[config.listField];
  if (!Array.isArray(list)) throw new Error(LOAD_ERROR);
  return list as Device[];
}

export function devicesQueryOptions({ kind, owner }: { kind: DeviceKind; owner: string }) {
  return queryOptions({
    queryKey: deviceKeys.list(kind, owner),
    queryFn: ({ signal }) => getDevices({ kind, signal }),
    enabled: Boolean(owner),
  });
}

export function useDevices({ kind }: { kind: DeviceKind }) {
  const owner = useOwner();
  return useQuery(devicesQueryOptions({ kind, owner }));
}
