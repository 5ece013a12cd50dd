import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateInvitationRequest, Invitation, InvitationResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { teamKeys } from '../team-keys';

function invitationOf(data: Partial<InvitationResponse> | undefined, fallback: string): Invitation {
  if (!data?.invitation) throw new Error(fallback);
  return data.invitation;
}

/** endpoints.invitations.create: the link is e-mailed; 409 when the address already has an account. */
export async function createInvitation(request: CreateInvitationRequest): Promise<Invitation> {
  return invitationOf(
    await call<Partial<InvitationResponse>>(endpoints.invitations.create, { body: request }),
    'L’invitation n’a pas été envoyée.',
  );
}

/** endpoints.invitations.resend: a new link, valid afresh, sent again. */
export async function resendInvitation(id: string): Promise<Invitation> {
  return invitationOf(
    await call<Partial<InvitationResponse>>(endpoints.invitations.resend, { params: { id } }),
    'L’invitation n’a pas été renvoyée.',
  );
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
