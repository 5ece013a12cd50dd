import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { withFallbackMessage } from '@/lib/errors';
import { DEVICE_KINDS, deviceKeys, type Device, type DeviceKind } from '../device-kinds';

/** endpoints.emitter.create or endpoints.sensor.create `{name}`; the new device is under `emitter` / `sensor`. */
export async function createDevice({ kind, name }: { kind: DeviceKind; name: string }): Promise<Device> {
  const config = DEVICE_KINDS[kind];
  // Either kind's answer, read by the field of this kind.
  const data: Readonly<Record<string, unknown>> | undefined = await withFallbackMessage(
    call(endpoints[kind].create, { body: { name } }),
    config.fallbacks.create,
  );
  const device = data?.[config.itemField];
  if (!device || typeof device !== 'object') throw new Error(config.fallbacks.create);
  return device as Device;
}

/** Creates a device and appends it to the cached list. */
export function useCreateDevice({ kind }: { kind: DeviceKind }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (name: string) => createDevice({ kind, name }),
    onSuccess: (device) => {
      // The live stream may have added it already.
      queryClient.setQueryData<Device[]>(deviceKeys.list(kind, owner), (list) => [
        ...(list ?? []).filter((item) => item.id !== device.id),
        device,
      ]);
    },
  });
}
