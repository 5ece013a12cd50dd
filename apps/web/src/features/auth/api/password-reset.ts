import { useMutation } from '@tanstack/react-query';
import type { PasswordResetConfirmRequest, PasswordResetRequestedResponse } from '@vigie/contract';
import { api } from '@/lib/api-client';

/** POST /api/auth/password-reset: the same answer whether an account uses the address or not. */
export const useRequestPasswordReset = () =>
  useMutation({ mutationFn: (email: string) => api.post<PasswordResetRequestedResponse>('/auth/password-reset', { email }) });

/** POST /api/auth/password-reset/confirm: the new password, and every session of the account ends. */
export const useConfirmPasswordReset = () =>
  useMutation({ mutationFn: (input: PasswordResetConfirmRequest) => api.post<undefined>('/auth/password-reset/confirm', input) });
