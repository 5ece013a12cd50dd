import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';

/** endpoints.user.changePassword: the user's other sessions end at once; this one stays open. */
export const useChangePassword = () =>
  useMutation({ mutationFn: (change: ChangePasswordRequest) => call(endpoints.user.changePassword, { body: change }) });

/** endpoints.auth.logoutEverywhere: every session of the user ends, this one included. */
export const useLogoutEverywhere = () => useMutation({ mutationFn: () => call(endpoints.auth.logoutEverywhere) });
