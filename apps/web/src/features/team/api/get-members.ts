import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Member } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { teamKeys } from '../team-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.members.list: everyone in the organization, whatever their role. */
export async function getMembers({ signal }: { signal?: AbortSignal } = {}): Promise<Member[]> {
  const data = await call(endpoints.members.list, { signal });
  if (!Array.isArray(data?.members)) throw new Error(LOAD_ERROR);
  return data.members;
}

export function membersQueryOptions(owner: string) {
  return queryOptions({
    queryKey: teamKeys.members(owner),
    queryFn: ({ signal }) => getMembers({ signal }),
    enabled: Boolean(owner),
  });
}

export function useMembers() {
  return useQuery(membersQueryOptions(useOwner()));
}
