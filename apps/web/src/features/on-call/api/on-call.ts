import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Member, UpdateOnCallRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { onCallKeys } from '../on-call-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.onCall.get: a site's rota and ladder, and who would be woken now. */
export function useOnCall(siteId: string) {
  const owner = useOwner();
  return useQuery({
    queryKey: onCallKeys.site(owner, siteId),
    queryFn: ({ signal }) => call(endpoints.onCall.get, { params: { id: siteId }, signal }),
    enabled: Boolean(owner),
    // Who is on call changes with the hour: read afresh at each visit, and after a minute.
    staleTime: 60_000,
  });
}

/** endpoints.onCall.update (admins and managers): the whole rota is replaced; 400 with the reason. */
export function useUpdateOnCall(siteId: string) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (rota: UpdateOnCallRequest) => call(endpoints.onCall.update, { params: { id: siteId }, body: rota }),
    onSuccess: (saved) => queryClient.setQueryData(onCallKeys.site(owner, siteId), saved),
  });
}

/** endpoints.members.list: everyone in the organization, to name the people of a rota. */
export function useMembers({ enabled = true }: { enabled?: boolean } = {}) {
  const owner = useOwner();
  return useQuery({
    queryKey: onCallKeys.members(owner),
    queryFn: async ({ signal }): Promise<Member[]> => {
      const data = await call(endpoints.members.list, { signal });
      if (!Array.isArray(data?.members)) throw new Error(LOAD_ERROR);
      return data.members;
    },
    enabled: enabled && Boolean(owner),
    staleTime: 60_000,
  });
}
