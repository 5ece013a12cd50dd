import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Report } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { reportKeys } from '../report-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.reports.list, newest first; one site's only with `siteId`. */
export async function getReports({ siteId, signal }: { siteId: string | null; signal?: AbortSignal }): Promise<Report[]> {
  const data = await call(endpoints.reports.list, { query: { siteId: siteId || undefined }, signal });
  if (!Array.isArray(data?.reports)) throw new Error(LOAD_ERROR);
  return data.reports;
}

export function reportsQueryOptions({ owner, siteId }: { owner: string; siteId: string | null }) {
  return queryOptions({
    queryKey: reportKeys.list(owner, siteId),
    queryFn: ({ signal }) => getReports({ siteId, signal }),
    enabled: Boolean(owner),
  });
}

export function useReports({ siteId = null }: { siteId?: string | null } = {}) {
  const owner = useOwner();
  return useQuery(reportsQueryOptions({ owner, siteId }));
}
