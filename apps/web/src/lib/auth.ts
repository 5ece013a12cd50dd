import type { User } from '@vigie/contract';
import { createContext, useContext } from 'react';

/** `challenge`: the password was right and two-factor authentication is on; a code must follow. */
export type LoginResult = { success: true } | { success: false; error?: string; challenge?: string };

export type AuthContextValue = {
  token: string | null;
  user: User | null;
  /** True at start-up until the stored session is checked, and during a login. */
  loading: boolean;
  /** `rememberMe`: « Se souvenir de moi », a long session instead of one that ends when left idle. */
  login: (email: string, password: string, rememberMe?: boolean) => Promise<LoginResult>;
  /** The second step of a sign-in with two-factor authentication: the challenge of the first and a code. */
  loginWithCode: (challenge: string, code: string) => Promise<LoginResult>;
  /** Reads the user again from the server, after a change of one's own account (two-factor authentication). */
  refreshUser: () => Promise<void>;
  /** Signs in with an access token obtained otherwise (an accepted invitation), exactly as a login does. */
  startSession: (token: string) => Promise<LoginResult>;
  logout: () => void;
};

// Shared so that every feature can read the session; the auth feature provides it.
export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth doit être utilisé dans un AuthProvider.');
  return value;
}

/** Whose data the caches hold: keeps one account's lists away from another's. */
export function useOwner(): string {
  return useAuth().user?.id ?? '';
}
