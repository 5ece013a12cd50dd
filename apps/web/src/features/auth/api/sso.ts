import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SsoDiscoverResponse, SsoSettingsRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';

/**
 * endpoints.sso.discover: where a person of this address signs in through their organization's
 * single sign-on, or null (no single sign-on for its domain, or the question failed: the password
 * stays offered).
 */
export async function discoverSso(email: string, signal?: AbortSignal): Promise<SsoDiscoverResponse['sso']> {
  try {
    const data = await call(endpoints.sso.discover, { body: { email }, signal });
    return data?.sso?.url ? data.sso : null;
  } catch {
    return null;
  }
}

/** The address that starts the sign-in, with the page to reach afterwards (a path of this site). */
export function ssoStartUrl(url: string, next: string): string {
  const separator = url.includes('?') ? '&' : '?';
  return `${url}${separator}${new URLSearchParams({ next }).toString()}`;
}

/** The address the provider sends the browser back to (its « redirect URI »), as this server registers it. */
export function ssoCallbackUrl(origin: string): string {
  return `${origin}${endpoints.sso.callback.path}`;
}

const ssoSettingsKey = (owner: string) => ['organization-sso', owner] as const;

/** endpoints.organizationSso.get (admins): the organization's single sign-on, never its client secret; null when none. */
export function useSsoSettings({ enabled = true }: { enabled?: boolean } = {}) {
  const owner = useOwner();
  return useQuery({
    queryKey: ssoSettingsKey(owner),
    queryFn: async ({ signal }) => (await call(endpoints.organizationSso.get, { signal })).sso,
    enabled: enabled && Boolean(owner),
  });
}

/** endpoints.organizationSso.update (admins): without clientSecret, the stored one is kept. */
export function useUpdateSsoSettings() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: SsoSettingsRequest) => (await call(endpoints.organizationSso.update, { body: settings })).sso,
    onSuccess: (sso) => queryClient.setQueryData(ssoSettingsKey(owner), sso),
  });
}
