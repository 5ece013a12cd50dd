import { useQuery } from '@tanstack/react-query';
import type { OverviewResponse, OverviewSite, Region, RegionsResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { earlyInitialData, earlyOr } from '@/lib/early-fetch';
import { OVERVIEW_PATH, REGIONS_PATH } from './network-reads';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** The keys of « Réseau » and of the regions, per signed-in user; a change of a shop or a region reads them again. */
export const networkKeys = {
  overview: (owner: string) => ['overview', owner] as const,
  regions: (owner: string) => ['regions', owner] as const,
};

function overviewSites(data: OverviewResponse | undefined): OverviewSite[] {
  if (!data || !Array.isArray(data.sites)) throw new Error(LOAD_ERROR);
  return data.sites;
}

const regionList = (data: RegionsResponse | undefined): Region[] => data?.regions ?? [];

/** endpoints.overview.get: each shop of the person's scope with its state, the worst first. */
export async function getOverview({ signal }: { signal?: AbortSignal } = {}): Promise<OverviewSite[]> {
  return overviewSites(await earlyOr(OVERVIEW_PATH, () => call(endpoints.overview.get, { signal })));
}

/** endpoints.regions.list: the organization's regions. */
export async function getRegions({ signal }: { signal?: AbortSignal } = {}): Promise<Region[]> {
  return regionList(await earlyOr(REGIONS_PATH, () => call(endpoints.regions.list, { signal })));
}

export function useOverview() {
  const owner = useOwner();
  // Alerts and devices change all day: read afresh at each visit and every minute.
  return useQuery({
    queryKey: networkKeys.overview(owner),
    queryFn: ({ signal }) => getOverview({ signal }),
    enabled: Boolean(owner),
    refetchInterval: 60_000,
    // Already in from the read started at page load: the table in the screen's first render.
    ...earlyInitialData(OVERVIEW_PATH, (data) => overviewSites(data as OverviewResponse | undefined), Boolean(owner)),
  });
}

export function useRegions() {
  const owner = useOwner();
  return useQuery({
    queryKey: networkKeys.regions(owner),
    queryFn: ({ signal }) => getRegions({ signal }),
    enabled: Boolean(owner),
    staleTime: 60_000,
    ...earlyInitialData(REGIONS_PATH, (data) => regionList(data as RegionsResponse | undefined), Boolean(owner)),
  });
}
