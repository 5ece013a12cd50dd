import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { installationKeys } from './get-installation-key';

/** endpoints.installationKey.rotate: a new key; the old one installs nothing any more. */
export async function regenerateInstallationKey(): Promise<string> {
  const data = await call(endpoints.installationKey.rotate);
  if (!data?.installationKey) throw new Error('Clé non reçue du serveur.');
  return data.installationKey;
}

export function useRegenerateInstallationKey() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: () => regenerateInstallationKey(),
    onSuccess: (key) => queryClient.setQueryData(installationKeys.key(owner), key),
  });
}
