import { useMutation } from '@tanstack/react-query';
import type { ClaimCheckRequest, ClaimCheckResponse, ClaimRequest, Emitter, Sensor } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { ApiError, call } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';

export type ClaimedDevice = { kind: 'sensor'; device: Sensor } | { kind: 'emitter'; device: Emitter };

/** The factory device a label names, as its maker's batch describes it. */
export type LabelledDevice = ClaimCheckResponse['device'];

/** endpoints.devices.claim: the labelled device joins the organization, with its alert rule. */
export async function claimDevice(request: ClaimRequest): Promise<ClaimedDevice> {
  const data = await call(endpoints.devices.claim, { body: request });
  if (data && 'sensor' in data && data.sensor) return { kind: 'sensor', device: data.sensor };
  if (data && 'emitter' in data && data.emitter) return { kind: 'emitter', device: data.emitter };
  throw new Error('Réponse inattendue du serveur\u202F: réessayez.');
}

export function useClaimDevice() {
  return useMutation({ mutationFn: claimDevice });
}

/**
 * endpoints.devices.claimCheck: the label read at step 1, checked as its claim will be (a wrong
 * code is refused there, not after the choices). Nothing is claimed.
 */
export async function checkLabel(label: ClaimCheckRequest): Promise<LabelledDevice> {
  const data = await call(endpoints.devices.claimCheck, { body: label });
  if (!data?.device) throw new Error('Réponse inattendue du serveur\u202F: réessayez.');
  return data.device;
}

export function useCheckLabel() {
  return useMutation({ mutationFn: checkLabel });
}

/** Which field of the label a refusal is about: the code (a wrong label), the serial, or neither (already installed, too many tries, network). */
export type LabelRefusal = { message: string; field: 'serial' | 'code' | null };

/** How step 1 shows a refused label: the server's French message, on the field it concerns. */
export function labelRefusal(error: unknown): LabelRefusal {
  const message = errorMessage(error, 'La vérification de l’étiquette a échoué\u202F: réessayez.');
  if (!(error instanceof ApiError)) return { message, field: null };
  if (error.status === 400) return { message, field: /^Le numéro de série/.test(message) ? 'serial' : 'code' };
  // Unknown serial and wrong code are one answer: the code is what is mistyped or misread, the serial stays.
  if (error.status === 404) return { message, field: 'code' };
  return { message, field: null };
}
