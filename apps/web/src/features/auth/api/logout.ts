import { endpoints } from '@vigie/contract/routes';
import { apiFetch, endpointPath, getAccessToken } from '@/lib/api-client';

/**
 * endpoints.auth.logout with the current token: the server refuses it from now on, everywhere.
 * Sent before the token is forgotten; the browser signs out even when the server cannot be reached.
 */
export function revokeSession(): void {
  if (!getAccessToken()) return;
  apiFetch(endpointPath(endpoints.auth.logout), { method: endpoints.auth.logout.method }).catch(() => undefined);
}
