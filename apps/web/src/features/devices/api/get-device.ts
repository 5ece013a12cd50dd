import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { withFallbackMessage } from '@/lib/errors';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';
import { LOAD_ERROR } from '@/lib/fallback-text';

type DeviceRef = { kind: DeviceKind; id: string };

/** endpoints.emitter.get or endpoints.sensor.get. */
export async function getDevice({ kind, id, signal }: DeviceRef & { signal?: AbortSignal }): Promise<Device> {
  const config = DEVICE_KINDS[kind];
  // Either kind's answer, read by the field of this kind.
  const data: Readonly<Record<string, unknown>> | undefined = await withFallbackMessage(
    call(endpoints[kind].get, { params: { id }, signal }),
    config.fallbacks.one,
  );
  const device = data?.[config.itemField];
  if (!device || typeof device !== 'object') throw new Error(LOAD_ERROR);
  return device as Device;
}

export function deviceQueryOptions({ kind, id, owner }: DeviceRef & { owner: string }) {
  return queryOptions({
    queryKey: deviceKeys.detail(kind, owner, id),
    queryFn: ({ signal }) => getDevice({ kind, id, signal }),
    enabled: Boolean(owner),
  });
}

export function useDevice({ kind, id }: DeviceRef) {
  const owner = useOwner();
  return useQuery(deviceQueryOptions({ kind, id, owner }));
}
