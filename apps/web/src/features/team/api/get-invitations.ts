import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Invitation } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { teamKeys } from '../team-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.invitations.list (admins): the invitations not yet accepted, expired ones included. */
export async function getInvitations({ signal }: { signal?: AbortSignal } = {}): Promise<Invitation[]> {
  const data = await call(endpoints.invitations.list, { signal });
  if (!Array.isArray(data?.invitations)) throw new Error(LOAD_ERROR);
  return data.invitations;
}

export function invitationsQueryOptions(owner: string, enabled = true) {
  return queryOptions({
    queryKey: teamKeys.invitations(owner),
    queryFn: ({ signal }) => getInvitations({ signal }),
    enabled: enabled && Boolean(owner),
  });
}

/** Only asked for by an admin: anyone else would be refused. */
export function useInvitations({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery(invitationsQueryOptions(useOwner(), enabled));
}
