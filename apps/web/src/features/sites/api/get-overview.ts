import { useQuery } from '@tanstack/react-query';
import type { OverviewResponse, OverviewSite, Region, RegionsResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';

/** endpoints.overview.get: each shop of the person's scope with its state, the worst first. */
export async function getOverview({ signal }: { signal?: AbortSignal } = {}): Promise<OverviewSite[]> {
  const data = await call<OverviewResponse | undefined>(endpoints.overview.get, { signal });
  if (!data || !Array.isArray(data.sites)) throw new Error('Error loading data');
  return data.sites;
}

/** endpoints.regions.list: the organization's regions. */
export async function getRegions({ signal }: { signal?: AbortSignal } = {}): Promise<Region[]> {
  const data = await call<RegionsResponse | undefined>(endpoints.regions.list, { signal });
  return data?.regions ?? [];
}

export function useOverview() {
  const owner = useOwner();
  // Alerts and devices change all day: read afresh at each visit and every minute.
  return useQuery({
    queryKey: ['overview', owner],
    queryFn: ({ signal }) => getOverview({ signal }),
    enabled: Boolean(owner),
    refetchInterval: 60_000,
  });
}

export function useRegions() {
  const owner = useOwner();
  return useQuery({
    queryKey: ['regions', owner],
    queryFn: ({ signal }) => getRegions({ signal }),
    enabled: Boolean(owner),
    staleTime: 60_000,
  });
}
