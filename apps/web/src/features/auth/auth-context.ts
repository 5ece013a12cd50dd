import type { User } from '@vigie/contract';
import { createContext } from 'react';

export type LoginResult = { success: true } | { success: false; error?: string };

export type AuthContextValue = {
  token: string | null;
  user: User | null;
  /** True at start-up until the stored session is checked, and during a login. */
  loading: boolean;
  login: (email: string, password: string) => Promise<LoginResult>;
  logout: () => void;
};

export const AuthContext = createContext<AuthContextValue | null>(null);
