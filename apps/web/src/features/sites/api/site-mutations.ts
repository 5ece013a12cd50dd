import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSiteRequest, Site, UpdateSiteRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { siteKeys } from './get-sites';
import { refreshNetwork } from './region-queries';

/**
 * A created or changed site shows at once; then the list is read again, in its order, with the
 * regions and « Réseau » (a name or a region changed there too).
 */
function useSiteWrite<T>(run: (input: T) => Promise<Site>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: run,
    onSuccess: (site) => {
      queryClient.setQueryData<Site[]>(siteKeys.list(owner), (list) =>
        list
          ? list.some((item) => item.id === site.id)
            ? list.map((item) => (item.id === site.id ? site : item))
            : [...list, site]
          : list,
      );
      return refreshNetwork(queryClient, owner);
    },
  });
}

/** endpoints.sites.create. */
export const useCreateSite = () =>
  useSiteWrite(async (site: CreateSiteRequest) => (await call(endpoints.sites.create, { body: site })).site);

/** endpoints.sites.update. */
export const useUpdateSite = () =>
  useSiteWrite(
    async ({ id, changes }: { id: string; changes: UpdateSiteRequest }) =>
      (await call(endpoints.sites.update, { params: { id }, body: changes })).site,
  );

/** endpoints.sites.remove: refused (409, with the reason) while it holds devices, or for the last site. */
export function useDeleteSite() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (id: string) => call(endpoints.sites.remove, { params: { id } }),
    onSuccess: () => refreshNetwork(queryClient, owner),
  });
}
