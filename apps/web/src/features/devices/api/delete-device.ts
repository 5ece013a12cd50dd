import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';

/** DELETE /api/emitter/:id or /api/sensor/:id (204, nothing to read). */
export async function deleteDevice(kind: DeviceKind, id: string, token: string | null): Promise<void> {
  await api.delete(`${DEVICE_KINDS[kind].path}/${encodeURIComponent(id)}`, { token });
}

/** Deletes a device and removes it from the cached list. */
export function useDeleteDevice(kind: DeviceKind, token: string | null, owner: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteDevice(kind, id, token),
    onSuccess: (_result, id) => {
      queryClient.setQueryData<Device[]>(deviceKeys.list(kind, owner), (list) => list?.filter((device) => device.id !== id));
    },
  });
}
