import { useQuery } from '@tanstack/react-query';
import type { Site } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { earlyOr } from '@/lib/early-fetch';
import { SITES_PATH } from './network-reads';

export const siteKeys = { list: (owner: string) => ['sites', owner] as const };

/** endpoints.sites.list: the organization's shops. */
export async function getSites({ signal }: { signal?: AbortSignal } = {}): Promise<Site[]> {
  const data = await earlyOr(SITES_PATH, () => call(endpoints.sites.list, { signal }));
  return data?.sites ?? [];
}

export function useSites() {
  const owner = useOwner();
  return useQuery({
    queryKey: siteKeys.list(owner),
    queryFn: ({ signal }) => getSites({ signal }),
    enabled: Boolean(owner),
    staleTime: 60_000,
  });
}
