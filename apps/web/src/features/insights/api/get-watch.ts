import { useQuery } from '@tanstack/react-query';
import type { WatchItem } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { INSIGHTS_REFRESH_MS, insightsKeys } from '../insights-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.insights.watch, for one site or all: the sensors to keep an eye on, most urgent first. */
export async function getWatch({ siteId, signal }: { siteId?: string | null; signal?: AbortSignal }): Promise<WatchItem[]> {
  const data = await call(endpoints.insights.watch, { query: { siteId: siteId || undefined }, signal });
  if (!data || !Array.isArray(data.watch)) throw new Error(LOAD_ERROR);
  return data.watch as WatchItem[];
}

export function useWatch({ siteId = null }: { siteId?: string | null } = {}) {
  const owner = useOwner();
  return useQuery({
    queryKey: insightsKeys.watch(owner, siteId),
    queryFn: ({ signal }) => getWatch({ siteId, signal }),
    enabled: Boolean(owner),
    staleTime: INSIGHTS_REFRESH_MS,
    refetchInterval: INSIGHTS_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
}
