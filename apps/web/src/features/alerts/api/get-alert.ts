import { useQuery } from '@tanstack/react-query';
import type { Alert } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.alerts.get: an alert with its whole timeline. */
export async function getAlert({ id, signal }: { id: string; signal?: AbortSignal }): Promise<Alert> {
  const data = await call(endpoints.alerts.get, { params: { id }, signal });
  if (!data?.alert) throw new Error(LOAD_ERROR);
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
