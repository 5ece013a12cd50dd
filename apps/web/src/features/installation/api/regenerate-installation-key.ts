import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InstallationKeyResponse } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { installationKeys } from './get-installation-key';

/** POST /api/organization/installation-key: a new key; the old one installs nothing any more. */
export async function regenerateInstallationKey(token: string | null): Promise<string> {
  const data = await api.post<InstallationKeyResponse | undefined>('/organization/installation-key', undefined, { token });
  if (!data?.installationKey) throw new Error('Clé non reçue du serveur.');
  return data.installationKey;
}

export function useRegenerateInstallationKey(token: string | null, owner: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => regenerateInstallationKey(token),
    onSuccess: (key) => queryClient.setQueryData(installationKeys.key(owner), key),
  });
}
