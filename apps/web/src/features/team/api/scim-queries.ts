import { useMutation } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';

/** endpoints.scimToken.create (admins): the organization's new SCIM token, given this once; the previous one is refused from now on. */
export async function createScimToken(): Promise<string> {
  const data = await call(endpoints.scimToken.create);
  if (!data?.token) throw new Error('Le jeton SCIM n’a pas été créé.');
  return data.token;
}

export const useCreateScimToken = () => useMutation({ mutationFn: createScimToken });

/** The address an identity provider is given (its « URL du locataire »): where the SCIM service of this server is. */
export function scimBaseUrl(origin: string): string {
  return `${origin}${endpoints.scim.listUsers.path.replace(/\/Users$/, '')}`;
}
