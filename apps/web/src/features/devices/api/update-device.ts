import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateDeviceRequest } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { withFallbackMessage } from '@/lib/errors';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';

/** PUT /api/emitter/:id or /api/sensor/:id with the fields to change. */
export async function updateDevice(kind: DeviceKind, id: string, changes: UpdateDeviceRequest, token: string | null): Promise<Device> {
  const config = DEVICE_KINDS[kind];
  const data = await withFallbackMessage(
    api.put<Partial<Record<string, unknown>> | undefined>(`${config.path}/${encodeURIComponent(id)}`, changes, { token }),
    config.fallbacks.update,
  );
  const device = data?.[config.itemField];
  if (!device || typeof device !== 'object') throw new Error(config.fallbacks.update);
  return device as Device;
}

/** Saves changes and puts the answer in the cached detail and list. */
export function useUpdateDevice(kind: DeviceKind, id: string, token: string | null, owner: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateDeviceRequest) => updateDevice(kind, id, changes, token),
    onSuccess: (device) => {
      queryClient.setQueryData(deviceKeys.detail(kind, owner, id), device);
      queryClient.setQueryData<Device[]>(deviceKeys.list(kind, owner), (list) => list?.map((item) => (item.id === id ? device : item)));
    },
  });
}
