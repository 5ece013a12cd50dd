import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyPhoneResponse, QuietHours } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { onCallKeys } from '../on-call-keys';

/** endpoints.phone.get: the person's phone, quiet hours, and whether this server sends SMS and places calls. */
export function usePhone() {
  const owner = useOwner();
  return useQuery({
    queryKey: onCallKeys.phone(owner),
    queryFn: ({ signal }) => call(endpoints.phone.get, { signal }),
    enabled: Boolean(owner),
  });
}

/**
 * A change of one's phone shows at once; the rotas are read again, since who is on call now is
 * shown with a verified phone or as « notification seulement ».
 */
function usePhoneWrite<T>(run: (input: T) => Promise<MyPhoneResponse>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: run,
    onSuccess: (mine) => {
      queryClient.setQueryData(onCallKeys.phone(owner), mine);
      return queryClient.invalidateQueries({ queryKey: onCallKeys.sites(owner) });
    },
  });
}

/** endpoints.phone.set: the number is kept and a 6-digit code is sent to it by SMS (400, 429 or 503 with the reason). */
export const useSetPhone = () => usePhoneWrite((phone: string) => call(endpoints.phone.set, { body: { phone } }));

/** endpoints.phone.verify: the code received confirms the number. */
export const useVerifyPhone = () => usePhoneWrite((code: string) => call(endpoints.phone.verify, { body: { code } }));

/** endpoints.phone.quietHours: `null`, none. */
export const useSetQuietHours = () =>
  usePhoneWrite((quietHours: QuietHours | null) => call(endpoints.phone.quietHours, { body: { quietHours } }));

/** endpoints.phone.remove: no more SMS nor call for this person. */
export function useRemovePhone() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: () => call(endpoints.phone.remove),
    onSuccess: () => {
      queryClient.setQueryData<MyPhoneResponse>(onCallKeys.phone(owner), (mine) => (mine ? { ...mine, phone: null } : mine));
      return queryClient.invalidateQueries({ queryKey: onCallKeys.all(owner) });
    },
  });
}
