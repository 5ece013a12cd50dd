import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateInvitationRequest, Invitation, InvitationResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { teamKeys } from '../team-keys';

/** An invitation made or renewed; `link` when this server sends no e-mail: the admin hands it over. */
export interface InvitationResult {
  invitation: Invitation;
  link: string | null;
}

function invitationOf(data: Partial<InvitationResponse> | undefined, fallback: string): InvitationResult {
  if (!data?.invitation) throw new Error(fallback);
  return { invitation: data.invitation, link: data.emailSent === false && data.link ? data.link : null };
}

/** endpoints.invitations.create: the link is e-mailed (or given back without e-mail); 409 when the address already has an account. */
export async function createInvitation(request: CreateInvitationRequest): Promise<InvitationResult> {
  return invitationOf(await call(endpoints.invitations.create, { body: request }), 'L’invitation n’a pas été envoyée.');
}

/** endpoints.invitations.resend: a new link, valid afresh, sent again. */
export async function resendInvitation(id: string): Promise<InvitationResult> {
  return invitationOf(await call(endpoints.invitations.resend, { params: { id } }), 'L’invitation n’a pas été renvoyée.');
}

/** endpoints.invitations.remove: its link stops working. */
export async function revokeInvitation(id: string): Promise<void> {
  await call(endpoints.invitations.remove, { params: { id } });
}

function useInvitationMutation<T, R>(run: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.invitations(owner) }),
  });
}

export const useCreateInvitation = () => useInvitationMutation(createInvitation);
export const useResendInvitation = () => useInvitationMutation(resendInvitation);
export const useRevokeInvitation = () => useInvitationMutation(revokeInvitation);
