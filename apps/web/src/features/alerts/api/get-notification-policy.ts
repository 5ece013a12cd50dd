import { useQuery } from '@tanstack/react-query';
import type { NotificationPolicy } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';

/** GET /api/notification-policy: who is told, and whether this server sends e-mail at all. */
export function useNotificationPolicy() {
  const owner = useOwner();
  return useQuery({
    queryKey: [...alertKeys.all(owner), 'policy'],
    queryFn: async ({ signal }) => (await api.get<{ policy: NotificationPolicy }>('/notification-policy', { signal })).policy,
    enabled: Boolean(owner),
    staleTime: 60_000,
  });
}
