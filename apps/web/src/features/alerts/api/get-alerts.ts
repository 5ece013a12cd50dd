import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Alert } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys, type AlertListFilter } from '../alert-keys';

/** GET /api/alerts, newest first; `status=active` is open or acknowledged. */
export async function getAlerts({ filter, signal }: { filter: AlertListFilter; signal?: AbortSignal }): Promise<Alert[]> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value) query.set(name, value);
  const data = await api.get<{ alerts?: Alert[] }>(`/alerts${query.size > 0 ? `?${query}` : ''}`, { signal });
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
