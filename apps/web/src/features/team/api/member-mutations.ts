import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Member, MemberScope, Role } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { teamKeys } from '../team-keys';

/** endpoints.members.update `{role}`: refused (409, with the reason) when no admin would be left. */
export async function updateMemberRole({ id, role }: { id: string; role: Role }): Promise<Member> {
  const data = await call(endpoints.members.update, { params: { id }, body: { role } });
  if (!data?.member) throw new Error('Le rôle n’a pas été modifié.');
  return data.member;
}

/** endpoints.members.remove: the person's sessions end at once; the last admin cannot be removed (409). */
export async function removeMember(id: string): Promise<void> {
  await call(endpoints.members.remove, { params: { id } });
}

export function useUpdateMemberRole() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: updateMemberRole,
    onSuccess: (member) => {
      queryClient.setQueryData<Member[]>(teamKeys.members(owner), (list) => list?.map((item) => (item.id === member.id ? member : item)));
      return queryClient.invalidateQueries({ queryKey: teamKeys.members(owner) });
    },
  });
}

/** endpoints.members.update `{scope}`: what the member sees (null: the whole organization); effective at their next request. */
export async function updateMemberScope({ id, scope }: { id: string; scope: MemberScope | null }): Promise<Member> {
  const data = await call(endpoints.members.update, { params: { id }, body: { scope } });
  if (!data?.member) throw new Error('Le périmètre n’a pas été modifié.');
  return data.member;
}

export function useUpdateMemberScope() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: updateMemberScope,
    onSuccess: (member) => {
      queryClient.setQueryData<Member[]>(teamKeys.members(owner), (list) => list?.map((item) => (item.id === member.id ? member : item)));
      return queryClient.invalidateQueries({ queryKey: teamKeys.members(owner) });
    },
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: (_, id) => {
      queryClient.setQueryData<Member[]>(teamKeys.members(owner), (list) => list?.filter((item) => item.id !== id));
      return queryClient.invalidateQueries({ queryKey: teamKeys.members(owner) });
    },
  });
}

/**
 * endpoints.members.resetTwoFactor `{password}` (the admin's): the member lost their phone and
 * recovery codes; their sessions end and they sign in with the password alone until they turn it on again.
 */
export function useResetMemberTwoFactor() {
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) =>
      call(endpoints.members.resetTwoFactor, { params: { id }, body: { password } }),
  });
}
