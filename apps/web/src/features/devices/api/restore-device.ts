import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TrashedDevice } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';

type DeviceRef = { kind: DeviceKind; id: string };

/** endpoints.emitter.restore or endpoints.sensor.restore: the device leaves the trash. */
export async function restoreDevice({ kind, id }: DeviceRef): Promise<Device> {
  const config = DEVICE_KINDS[kind];
  // Either kind's answer, read by the field of this kind.
  const data: Readonly<Record<string, unknown>> | undefined = await call(endpoints[kind].restore, { params: { id } });
  const device = data?.[config.itemField];
  if (!device || typeof device !== 'object') throw new Error('Échec de la restauration');
  return device as Device;
}

/** Restores a device: back in its list, out of the trash. */
export function useRestoreDevice() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (device: DeviceRef) => restoreDevice(device),
    onSuccess: (device, { kind, id }) => {
      queryClient.setQueryData<TrashedDevice[]>(deviceKeys.trash(owner), (list) => list?.filter((item) => item.id !== id));
      // The live stream may have put it back already; the list is then refreshed in its order.
      queryClient.setQueryData<Device[]>(deviceKeys.list(kind, owner), (list) =>
        list ? [...list.filter((item) => item.id !== device.id), device] : list,
      );
      void queryClient.invalidateQueries({ queryKey: deviceKeys.list(kind, owner) });
    },
  });
}
