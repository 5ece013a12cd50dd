import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';

/** Per signed-in user, so that accounts never share a cache. */
const digestKey = (owner: string) => ['digest', owner] as const;

/** endpoints.digest.get: whether the person receives yesterday's alerts each morning. */
export function useDigest() {
  const owner = useOwner();
  return useQuery({
    queryKey: digestKey(owner),
    queryFn: ({ signal }) => call(endpoints.digest.get, { signal }),
    enabled: Boolean(owner),
  });
}

/** endpoints.digest.set: asked for, or stopped. */
export function useSetDigest() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (enabled: boolean) => call(endpoints.digest.set, { body: { enabled } }),
    onSuccess: (answer) => queryClient.setQueryData(digestKey(owner), answer),
  });
}
