import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TrashedDevice } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { deviceKeys } from '../device-kinds';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.trash.list: deleted devices, newest deletion first. */
export async function getTrash({ signal }: { signal?: AbortSignal } = {}): Promise<TrashedDevice[]> {
  const data = await call(endpoints.trash.list, { signal });
  if (!data || !Array.isArray(data.devices)) throw new Error(LOAD_ERROR);
  return data.devices;
}

export function trashQueryOptions({ owner }: { owner: string }) {
  return queryOptions({
    queryKey: deviceKeys.trash(owner),
    queryFn: ({ signal }) => getTrash({ signal }),
    enabled: Boolean(owner),
    // A deletion from another tab or member shows on the next visit.
    staleTime: 0,
  });
}

export function useTrash() {
  const owner = useOwner();
  return useQuery(trashQueryOptions({ owner }));
}
