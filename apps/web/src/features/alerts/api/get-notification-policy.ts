import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPolicy, UpdateNotificationPolicyRequest } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';

/** GET /api/notification-policy: who is told, and whether this server sends e-mail at all. */
export function useNotificationPolicy() {
  const owner = useOwner();
  return useQuery({
    queryKey: alertKeys.policy(owner),
    queryFn: async ({ signal }) => (await api.get<{ policy: NotificationPolicy }>('/notification-policy', { signal })).policy,
    enabled: Boolean(owner),
    staleTime: 60_000,
  });
}

/** PUT /api/notification-policy. */
export function useUpdateNotificationPolicy() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async (changes: UpdateNotificationPolicyRequest) =>
      (await api.put<{ policy: NotificationPolicy }>('/notification-policy', changes)).policy,
    onSuccess: (policy) => queryClient.setQueryData(alertKeys.policy(owner), policy),
  });
}
