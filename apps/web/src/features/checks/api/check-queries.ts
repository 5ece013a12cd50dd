import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Check, CreateCheckRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { checkKeys } from '../check-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.checks.list: the checks of the sites one sees, newest first; one site's only with `siteId`. */
export function useChecks({ siteId = null }: { siteId?: string | null } = {}) {
  const owner = useOwner();
  return useQuery({
    queryKey: checkKeys.list(owner, siteId),
    queryFn: async ({ signal }): Promise<Check[]> => {
      const data = await call(endpoints.checks.list, { query: { siteId: siteId || undefined }, signal });
      if (!Array.isArray(data?.checks)) throw new Error(LOAD_ERROR);
      return data.checks;
    },
    enabled: Boolean(owner),
  });
}

/** endpoints.checks.create (every member, in a site of their scope): 400 or 404 with the reason; the lists follow. */
export function useCreateCheck() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async (check: CreateCheckRequest): Promise<Check> => {
      const data = await call(endpoints.checks.create, { body: check });
      if (!data?.check) throw new Error('Réponse du serveur illisible.');
      return data.check;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: checkKeys.lists(owner) }),
  });
}
