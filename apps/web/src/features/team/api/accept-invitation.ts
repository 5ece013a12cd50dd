import { useQuery } from '@tanstack/react-query';
import type { AcceptInvitationRequest, InvitationPreviewResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { teamKeys } from '../team-keys';

export type InvitationPreview = InvitationPreviewResponse['invitation'];

/** endpoints.invitations.preview (public): who is invited, where, as what; 404 or 410 with the reason. */
export async function previewInvitation({ token, signal }: { token: string; signal?: AbortSignal }): Promise<InvitationPreview> {
  const data = await call(endpoints.invitations.preview, { body: { token }, signal });
  if (!data?.invitation) throw new Error('Réponse du serveur illisible.');
  return data.invitation;
}

/** endpoints.invitations.accept (public): the account is made; its access token comes back. */
export async function acceptInvitation(request: AcceptInvitationRequest): Promise<string> {
  const data = await call(endpoints.invitations.accept, { body: request });
  if (typeof data?.accessToken !== 'string' || !data.accessToken) throw new Error('Token non reçu du serveur');
  return data.accessToken;
}

/** The secret of an invitation link, as the contract accepts it (base64url, 20 to 200 characters). */
export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,200}$/;

export function useInvitationPreview(token: string) {
  const valid = INVITATION_TOKEN_PATTERN.test(token);
  return useQuery({
    queryKey: teamKeys.preview(token),
    queryFn: ({ signal }) => previewInvitation({ token, signal }),
    enabled: valid,
    staleTime: Infinity,
  });
}
