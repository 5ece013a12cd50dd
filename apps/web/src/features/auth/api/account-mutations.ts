import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '@vigie/contract';
import { api } from '@/lib/api-client';

/** PUT /api/user/password: the user's other sessions end at once; this one stays open. */
export const useChangePassword = () =>
  useMutation({ mutationFn: (change: ChangePasswordRequest) => api.put<undefined>('/user/password', change) });

/** POST /api/auth/logout-all: every session of the user ends, this one included. */
export const useLogoutEverywhere = () => useMutation({ mutationFn: () => api.post<undefined>('/auth/logout-all') });
