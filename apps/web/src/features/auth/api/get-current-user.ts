import type { User } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call, endpointPath } from '@/lib/api-client';
import { earlyOr, startEarlyFetch } from '@/lib/early-fetch';

const CURRENT_USER_PATH = endpointPath(endpoints.user.me);

/**
 * The session check of a returning user, started at page load (app/signed-in-reads.ts) rather
 * than once the app has rendered its first frame: {@link getCurrentUser} at start-up takes its
 * answer.
 */
export function startCurrentUserRead(token: string): void {
  startEarlyFetch(CURRENT_USER_PATH, token);
}

/** endpoints.user.me: the user of the client's token, read from the `user` field. */
export async function getCurrentUser({ signal }: { signal?: AbortSignal } = {}): Promise<User> {
  const data = await earlyOr(CURRENT_USER_PATH, () => call(endpoints.user.me, { signal }));
  if (!data || typeof data.user !== 'object' || data.user === null) {
    throw new Error('Impossible de récupérer les informations utilisateur');
  }
  const { organization } = data.user;
  // An operator's account has no client organization (docs/api.md, Opérateur): the member screens are not theirs.
  if (organization === null) throw new Error('Ce compte est un compte opérateur : les écrans des organisations ne lui sont pas ouverts.');
  return { ...data.user, organization };
}
