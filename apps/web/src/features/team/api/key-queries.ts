import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, CreateApiKeyRequest, CreatedApiKeyResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { LOAD_ERROR } from '@/lib/fallback-text';
import { teamKeys } from '../team-keys';

/** endpoints.apiKeys.list (admins): the organization's keys in force or expired, never their secrets. */
export async function getApiKeys({ signal }: { signal?: AbortSignal } = {}): Promise<ApiKey[]> {
  const data = await call(endpoints.apiKeys.list, { signal });
  if (!Array.isArray(data?.apiKeys)) throw new Error(LOAD_ERROR);
  return data.apiKeys;
}

export function apiKeysQueryOptions(owner: string, enabled = true) {
  return queryOptions({
    queryKey: teamKeys.apiKeys(owner),
    queryFn: ({ signal }) => getApiKeys({ signal }),
    enabled: enabled && Boolean(owner),
  });
}

/** Only asked for by an admin: anyone else would be refused. */
export function useApiKeys({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery(apiKeysQueryOptions(useOwner(), enabled));
}

/** endpoints.apiKeys.create: the new key with its secret, given this once. */
export async function createApiKey(request: CreateApiKeyRequest): Promise<CreatedApiKeyResponse['apiKey']> {
  const data = await call(endpoints.apiKeys.create, { body: request });
  if (!data?.apiKey?.key) throw new Error('La clé d’API n’a pas été créée.');
  return data.apiKey;
}

/** endpoints.apiKeys.revoke: refused at once, everywhere. */
export async function revokeApiKey(id: string): Promise<void> {
  await call(endpoints.apiKeys.revoke, { params: { id } });
}

function useApiKeyMutation<T, R>(run: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.apiKeys(owner) }),
  });
}

export const useCreateApiKey = () => useApiKeyMutation(createApiKey);
export const useRevokeApiKey = () => useApiKeyMutation(revokeApiKey);
