import { apiFetch, getAccessToken } from '@/lib/api-client';

/**
 * POST /api/auth/logout with the current token: the server refuses it from now on, everywhere.
 * Sent before the token is forgotten; the browser signs out even when the server cannot be reached.
 */
export function revokeSession(): void {
  if (!getAccessToken()) return;
  apiFetch('/auth/logout', { method: 'POST' }).catch(() => undefined);
}
