import type { CurrentUserResponse, User } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';

/** endpoints.user.me: the user of the client's token, read from the `user` field. */
export async function getCurrentUser({ signal }: { signal?: AbortSignal } = {}): Promise<User> {
  const data = await call<CurrentUserResponse | undefined>(endpoints.user.me, { signal });
  if (!data || typeof data.user !== 'object' || data.user === null) {
    throw new Error('Impossible de récupérer les informations utilisateur');
  }
  return data.user;
}
