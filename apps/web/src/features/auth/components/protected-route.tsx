import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { useAuth } from '@/lib/auth';

export type RedirectState = { from?: { pathname: string; search?: string; hash?: string } };

/** Lets signed-in users through; sends others to /login, remembering where they were going. */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { token, user, loading } = useAuth();
  const location = useLocation();

  if (loading) return <PageLoader label="Vérification de l'authentification..." />;

  if (!token || !user) {
    const state: RedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/login" replace state={state} />;
  }

  return children;
}

/** The path to return to after login, taken from the guard's state; /dashboard by default. */
export function redirectTarget(state: unknown, fallback: string): string {
  const from = (state as RedirectState | null)?.from;
  if (!from || typeof from.pathname !== 'string' || !from.pathname.startsWith('/') || from.pathname.startsWith('//')) {
    return fallback;
  }
  if (from.pathname === '/login') return fallback;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
