import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InstallationKeyResponse } from '@vigie/contract';
import { api } from '@/lib/api-client';

export const installationKeys = {
  key: (owner: string) => ['installation-key', owner] as const,
  protocol: ['device-protocol'] as const,
};

/** GET /api/organization/installation-key: the key a device is configured with to install itself. */
export async function getInstallationKey(token: string | null, signal?: AbortSignal): Promise<string> {
  const data = await api.get<InstallationKeyResponse | undefined>('/organization/installation-key', { token, signal });
  if (!data?.installationKey) throw new Error('Error loading data');
  return data.installationKey;
}

export function installationKeyQueryOptions(token: string | null, owner: string) {
  return queryOptions({
    queryKey: installationKeys.key(owner),
    queryFn: ({ signal }) => getInstallationKey(token, signal),
    enabled: Boolean(token),
  });
}

export function useInstallationKey(token: string | null, owner: string) {
  return useQuery(installationKeyQueryOptions(token, owner));
}
