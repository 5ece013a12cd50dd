import { useMutation } from '@tanstack/react-query';
import type { DeviceTokenResponse } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { DEVICE_KINDS, type DeviceKind } from '../device-kinds';

type DeviceRef = { kind: DeviceKind; id: string };

/** POST /api/emitter/:id/token or /api/sensor/:id/token: a new device token, the old one revoked. */
export async function rotateDeviceToken({ kind, id }: DeviceRef): Promise<string> {
  const data = await api.post<DeviceTokenResponse | undefined>(`${DEVICE_KINDS[kind].path}/${encodeURIComponent(id)}/token`);
  if (!data?.accessToken) throw new Error('Jeton non reçu du serveur.');
  return data.accessToken;
}

export function useRotateDeviceToken(device: DeviceRef) {
  return useMutation({ mutationFn: () => rotateDeviceToken(device) });
}
