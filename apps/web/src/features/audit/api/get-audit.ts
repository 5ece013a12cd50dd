import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditAction, AuditResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call, endpointPath } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { downloadFile } from '@/lib/download-file';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** What « Journal » filters on; empty strings mean « all ». */
export type AuditFilters = { action: AuditAction | ''; actorId: string; q: string; from: string; to: string };

export const NO_FILTERS: AuditFilters = { action: '', actorId: '', q: '', from: '', to: '' };

const PAGE = 50;

/** The time zone first, then the filters that are set, in their order. */
function queryOf(filters: AuditFilters): Record<string, string> {
  const query: Record<string, string> = { tz: Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Paris' };
  for (const [name, value] of Object.entries(filters)) {
    const text = value.trim();
    if (text) query[name] = text;
  }
  return query;
}

/** endpoints.audit.list: a page of the trail, newest first. */
export async function getAudit(filters: AuditFilters, cursor: string | null, signal?: AbortSignal): Promise<AuditResponse> {
  const query = { ...queryOf(filters), limit: PAGE, cursor: cursor || undefined };
  const data = await call(endpoints.audit.list, { query, signal });
  if (!Array.isArray(data?.events)) throw new Error(LOAD_ERROR);
  return { events: data.events, nextCursor: data.nextCursor ?? null };
}

/** The trail a page at a time, for the filters shown. */
export function useAuditTrail(filters: AuditFilters) {
  const owner = useOwner();
  return useInfiniteQuery({
    queryKey: ['audit', owner, filters] as const,
    queryFn: ({ pageParam, signal }) => getAudit(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: Boolean(owner),
  });
}

/** endpoints.audit.exportCsv with the same filters, saved under the name the server proposes. */
export function exportAudit(filters: AuditFilters): Promise<string> {
  return downloadFile(endpointPath(endpoints.audit.exportCsv, {}, queryOf(filters)), { accept: 'text/csv', fallbackName: 'journal.csv' });
}
