import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Region } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { networkKeys } from './get-overview';
import { siteKeys } from './get-sites';

/**
 * After a change to the regions or to a shop's region: the shops, the regions (a scoped member's
 * list is the regions of their shops) and « Réseau » are read again, so that a shop moved into a
 * region shows under it at once, not a minute later.
 */
export function refreshNetwork(queryClient: QueryClient, owner: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: siteKeys.list(owner) }),
    queryClient.invalidateQueries({ queryKey: networkKeys.regions(owner) }),
    queryClient.invalidateQueries({ queryKey: networkKeys.overview(owner) }),
  ]);
}

/** A region write that, once the server agrees, waits for the lists to be read again. */
function useRegionWrite<T, R>(run: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: run,
    // Awaited: the mutation is done once the new lists are in, so its message never precedes them.
    onSuccess: () => refreshNetwork(queryClient, owner),
  });
}

/** endpoints.regions.create (admins of the whole organization); 409 when the name is taken. */
export const useCreateRegion = () =>
  useRegionWrite(async (name: string): Promise<Region> => (await call(endpoints.regions.create, { body: { name } })).region);

/** endpoints.regions.update: renames it. */
export const useRenameRegion = () =>
  useRegionWrite(
    async ({ id, name }: { id: string; name: string }): Promise<Region> =>
      (await call(endpoints.regions.update, { params: { id }, body: { name } })).region,
  );

/** endpoints.regions.remove: its shops stay, in no region. */
export const useDeleteRegion = () => useRegionWrite(async (id: string) => call(endpoints.regions.remove, { params: { id } }));
