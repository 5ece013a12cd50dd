import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';

/** DELETE /api/emitter/:id or /api/sensor/:id (204, nothing to read): the device goes to the trash. */
export async function deleteDevice({ kind, id }: { kind: DeviceKind; id: string }): Promise<void> {
  await api.delete(`${DEVICE_KINDS[kind].path}/${encodeURIComponent(id)}`);
}

/** Deletes a device and removes it from the cached list. */
export function useDeleteDevice({ kind }: { kind: DeviceKind }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (id: string) => deleteDevice({ kind, id }),
    onSuccess: (_result, id) => {
      queryClient.setQueryData<Device[]>(deviceKeys.list(kind, owner), (list) => list?.filter((device) => device.id !== id));
      void queryClient.invalidateQueries({ queryKey: deviceKeys.trash(owner) });
    },
  });
}
