import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { deviceKeys, type Device, type DeviceKind } from '../device-kinds';

/** endpoints.emitter.remove or endpoints.sensor.remove (204, nothing to read): the device goes to the trash. */
export async function deleteDevice({ kind, id }: { kind: DeviceKind; id: string }): Promise<void> {
  await call(endpoints[kind].remove, { params: { id } });
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
