import { useMutation } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import type { DeviceKind } from '../device-kinds';

type DeviceRef = { kind: DeviceKind; id: string };

/** endpoints.emitter.rotateToken or endpoints.sensor.rotateToken: a new device token, the old one revoked. */
export async function rotateDeviceToken({ kind, id }: DeviceRef): Promise<string> {
  const data = await call(endpoints[kind].rotateToken, { params: { id } });
  if (!data?.accessToken) throw new Error('Jeton non reçu du serveur.');
  return data.accessToken;
}

export function useRotateDeviceToken(device: DeviceRef) {
  return useMutation({ mutationFn: () => rotateDeviceToken(device) });
}
