import { useMutation } from '@tanstack/react-query';
import type { ClaimRequest, Emitter, Sensor } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';

export type ClaimedDevice = { kind: 'sensor'; device: Sensor } | { kind: 'emitter'; device: Emitter };

/** endpoints.devices.claim: the labelled device joins the organization, with its alert rule. */
export async function claimDevice(request: ClaimRequest): Promise<ClaimedDevice> {
  const data = await call<{ sensor?: Sensor; emitter?: Emitter } | undefined>(endpoints.devices.claim, { body: request });
  if (data?.sensor) return { kind: 'sensor', device: data.sensor };
  if (data?.emitter) return { kind: 'emitter', device: data.emitter };
  throw new Error('Réponse inattendue du serveur : réessayez.');
}

export function useClaimDevice() {
  return useMutation({ mutationFn: claimDevice });
}
