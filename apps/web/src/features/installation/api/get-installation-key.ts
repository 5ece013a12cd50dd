import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { LOAD_ERROR } from '@/lib/fallback-text';

export const installationKeys = {
  key: (owner: string) => ['installation-key', owner] as const,
};

/** endpoints.installationKey.get: the key a device is configured with to install itself. */
export async function getInstallationKey({ signal }: { signal?: AbortSignal } = {}): Promise<string> {
  const data = await call(endpoints.installationKey.get, { signal });
  if (!data?.installationKey) throw new Error(LOAD_ERROR);
  return data.installationKey;
}

export function installationKeyQueryOptions({ owner }: { owner: string }) {
  return queryOptions({
    queryKey: installationKeys.key(owner),
    queryFn: ({ signal }) => getInstallationKey({ signal }),
    enabled: Boolean(owner),
  });
}

export function useInstallationKey() {
  const owner = useOwner();
  return useQuery(installationKeyQueryOptions({ owner }));
}
