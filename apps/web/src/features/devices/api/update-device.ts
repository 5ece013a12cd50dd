import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateDeviceRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { withFallbackMessage } from '@/lib/errors';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';

type DeviceRef = { kind: DeviceKind; id: string };

/** endpoints.emitter.update or endpoints.sensor.update with the fields to change. */
export async function updateDevice({ kind, id, changes }: DeviceRef & { changes: UpdateDeviceRequest }): Promise<Device> {
  const config = DEVICE_KINDS[kind];
  // Either kind's answer, read by the field of this kind.
  const data: Readonly<Record<string, unknown>> | undefined = await withFallbackMessage(
    call(endpoints[kind].update, { params: { id }, body: changes }),
    config.fallbacks.update,
  );
  const device = data?.[config.itemField];
  if (!device || typeof device !== 'object') throw new Error(config.fallbacks.update);
  return device as Device;
}

/** Saves changes and puts the answer in the cached detail and list. */
export function useUpdateDevice({ kind, id }: DeviceRef) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (changes: UpdateDeviceRequest) => updateDevice({ kind, id, changes }),
    onSuccess: (device) => {
      queryClient.setQueryData(deviceKeys.detail(kind, owner, id), device);
      queryClient.setQueryData<Device[]>(deviceKeys.list(kind, owner), (list) => list?.map((item) => (item.id === id ? device : item)));
    },
  });
}
