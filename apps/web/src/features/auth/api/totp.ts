import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecurityPolicy } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';

const recoveryKey = (owner: string) => ['totp-recovery-codes', owner] as const;

/** endpoints.totp.setup: a new secret, shown as a QR code; nothing changes until a code confirms it. */
export const useTotpSetup = () => useMutation({ mutationFn: () => call(endpoints.totp.setup) });

/** endpoints.totp.enable: a code from the app turns it on; the recovery codes come back this once. */
export function useTotpEnable() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call(endpoints.totp.enable, { body: { code } }),
    onSuccess: ({ recoveryCodes }) => queryClient.setQueryData(recoveryKey(owner), recoveryCodes.length),
  });
}

/** endpoints.totp.disable: given the password. */
export function useTotpDisable() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => call(endpoints.totp.disable, { body: { password } }),
    onSuccess: () => queryClient.removeQueries({ queryKey: recoveryKey(owner) }),
  });
}

/** endpoints.totp.recoveryCodesLeft: how many recovery codes are still unused (two-factor on only). */
export function useRecoveryCodesLeft() {
  const owner = useOwner();
  return useQuery({
    queryKey: recoveryKey(owner),
    queryFn: async ({ signal }) => (await call(endpoints.totp.recoveryCodesLeft, { signal })).remaining,
  });
}

/** endpoints.totp.renewRecoveryCodes: ten new codes, given the password; the old ones stop working. */
export function useRenewRecoveryCodes() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => call(endpoints.totp.renewRecoveryCodes, { body: { password } }),
    onSuccess: ({ recoveryCodes }) => queryClient.setQueryData(recoveryKey(owner), recoveryCodes.length),
  });
}

const securityKey = (owner: string) => ['organization-security', owner] as const;

/** endpoints.organizationSecurity.get: whether admins must use two-factor authentication. */
export function useSecurityPolicy() {
  const owner = useOwner();
  return useQuery({
    queryKey: securityKey(owner),
    queryFn: async ({ signal }) => (await call(endpoints.organizationSecurity.get, { signal })).policy,
  });
}

/** endpoints.organizationSecurity.update, for admins. */
export function useUpdateSecurityPolicy() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (policy: SecurityPolicy) => (await call(endpoints.organizationSecurity.update, { body: policy })).policy,
    onSuccess: (policy) => queryClient.setQueryData(securityKey(owner), policy),
  });
}
