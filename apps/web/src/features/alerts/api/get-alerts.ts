import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Alert } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys, type AlertListFilter } from '../alert-keys';

/** endpoints.alerts.list, newest first; `status=active` is open or acknowledged. */
export async function getAlerts({ filter, signal }: { filter: AlertListFilter; signal?: AbortSignal }): Promise<Alert[]> {
  const query = Object.fromEntries(Object.entries(filter).filter(([, value]) => value));
  const data = await call(endpoints.alerts.list, { query, signal });
  return data?.alerts ?? [];
}

export function alertsQueryOptions({ owner, filter, enabled = true }: { owner: string; filter: AlertListFilter; enabled?: boolean }) {
  return queryOptions({
    queryKey: alertKeys.list(owner, filter),
    queryFn: ({ signal }) => getAlerts({ filter, signal }),
    enabled: Boolean(owner) && enabled,
  });
}

export function useAlerts({ filter = {}, enabled = true }: { filter?: AlertListFilter; enabled?: boolean } = {}) {
  const owner = useOwner();
  return useQuery(alertsQueryOptions({ owner, filter, enabled }));
}

/** The alerts still running (open or acknowledged): the bell, the banner and the cards read them. */
export function useActiveAlerts() {
  return useAlerts({ filter: { status: 'active' } });
}
