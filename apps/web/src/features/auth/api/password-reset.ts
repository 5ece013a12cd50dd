import { useMutation } from '@tanstack/react-query';
import type { PasswordResetConfirmRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';

/** endpoints.auth.requestPasswordReset: the same answer whether an account uses the address or not. */
export const useRequestPasswordReset = () =>
  useMutation({
    mutationFn: (email: string) => call(endpoints.auth.requestPasswordReset, { body: { email } }),
  });

/** endpoints.auth.confirmPasswordReset: the new password, and every session of the account ends. */
export const useConfirmPasswordReset = () =>
  useMutation({
    mutationFn: (input: PasswordResetConfirmRequest) => call(endpoints.auth.confirmPasswordReset, { body: input }),
  });
