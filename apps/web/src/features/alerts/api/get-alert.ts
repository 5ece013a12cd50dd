import { useQuery } from '@tanstack/react-query';
import type { Alert } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';

/** GET /api/alerts/:id with its whole timeline. */
export async function getAlert({ id, signal }: { id: string; signal?: AbortSignal }): Promise<Alert> {
  const data = await api.get<{ alert?: Alert }>(`/alerts/${encodeURIComponent(id)}`, { signal });
  if (!data?.alert) throw new Error('Error loading data');
  return data.alert;
}

export function useAlert({ id }: { id: string }) {
  const owner = useOwner();
  return useQuery({
    queryKey: alertKeys.detail(owner, id),
    queryFn: ({ signal }) => getAlert({ id, signal }),
    enabled: Boolean(owner && id),
  });
}
