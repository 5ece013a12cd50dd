import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateNotificationPolicyRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';

/** endpoints.notificationPolicy.get: who is told, and whether this server sends e-mail at all. */
export function useNotificationPolicy() {
  const owner = useOwner();
  return useQuery({
    queryKey: alertKeys.policy(owner),
    queryFn: async ({ signal }) => (await call(endpoints.notificationPolicy.get, { signal })).policy,
    enabled: Boolean(owner),
    staleTime: 60_000,
  });
}

/** endpoints.notificationPolicy.update. */
export function useUpdateNotificationPolicy() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async (changes: UpdateNotificationPolicyRequest) =>
      (await call(endpoints.notificationPolicy.update, { body: changes })).policy,
    onSuccess: (policy) => queryClient.setQueryData(alertKeys.policy(owner), policy),
  });
}
