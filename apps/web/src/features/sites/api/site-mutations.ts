import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSiteRequest, Site, UpdateSiteRequest } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { siteKeys } from './get-sites';

function useSiteMutation<T, R>(run: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: siteKeys.list(owner) }) });
}

/** POST /api/sites. */
export const useCreateSite = () =>
  useSiteMutation(async (site: CreateSiteRequest) => (await api.post<{ site: Site }>('/sites', site)).site);

/** PUT /api/sites/:id. */
export const useUpdateSite = () =>
  useSiteMutation(
    async ({ id, changes }: { id: string; changes: UpdateSiteRequest }) =>
      (await api.put<{ site: Site }>(`/sites/${encodeURIComponent(id)}`, changes)).site,
  );

/** DELETE /api/sites/:id: refused (409, with the reason) while it holds devices, or for the last site. */
export const useDeleteSite = () => useSiteMutation((id: string) => api.delete(`/sites/${encodeURIComponent(id)}`));
