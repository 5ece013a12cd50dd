import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecurityPolicy, TotpEnableResponse, TotpRecoveryCodesStatus, TotpSetupResponse } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';

const recoveryKey = (owner: string) => ['totp-recovery-codes', owner] as const;

/** POST /api/user/totp/setup: a new secret, shown as a QR code; nothing changes until a code confirms it. */
export const useTotpSetup = () => useMutation({ mutationFn: () => api.post<TotpSetupResponse>('/user/totp/setup') });

/** POST /api/user/totp/enable: a code from the app turns it on; the recovery codes come back this once. */
export function useTotpEnable() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post<TotpEnableResponse>('/user/totp/enable', { code }),
    onSuccess: ({ recoveryCodes }) => queryClient.setQueryData(recoveryKey(owner), recoveryCodes.length),
  });
}

/** POST /api/user/totp/disable: given the password. */
export function useTotpDisable() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => api.post<undefined>('/user/totp/disable', { password }),
    onSuccess: () => queryClient.removeQueries({ queryKey: recoveryKey(owner) }),
  });
}

/** GET /api/user/totp/recovery-codes: how many recovery codes are still unused (two-factor on only). */
export function useRecoveryCodesLeft() {
  const owner = useOwner();
  return useQuery({
    queryKey: recoveryKey(owner),
    queryFn: async ({ signal }) => (await api.get<TotpRecoveryCodesStatus>('/user/totp/recovery-codes', { signal })).remaining,
  });
}

/** POST /api/user/totp/recovery-codes: ten new codes, given the password; the old ones stop working. */
export function useRenewRecoveryCodes() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => api.post<TotpEnableResponse>('/user/totp/recovery-codes', { password }),
    onSuccess: ({ recoveryCodes }) => queryClient.setQueryData(recoveryKey(owner), recoveryCodes.length),
  });
}

const securityKey = (owner: string) => ['organization-security', owner] as const;

/** GET /api/organization/security: whether admins must use two-factor authentication. */
export function useSecurityPolicy() {
  const owner = useOwner();
  return useQuery({
    queryKey: securityKey(owner),
    queryFn: async ({ signal }) => (await api.get<{ policy: SecurityPolicy }>('/organization/security', { signal })).policy,
  });
}

/** PUT /api/organization/security, for admins. */
export function useUpdateSecurityPolicy() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (policy: SecurityPolicy) => (await api.put<{ policy: SecurityPolicy }>('/organization/security', policy)).policy,
    onSuccess: (policy) => queryClient.setQueryData(securityKey(owner), policy),
  });
}
