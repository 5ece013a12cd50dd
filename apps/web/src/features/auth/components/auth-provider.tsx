import type { User } from '@vigie/contract';
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useMemo, useReducer, type ReactNode } from 'react';
import { ApiError, getAccessToken, setAccessToken, setUnauthorizedHandler } from '@/lib/api-client';
import { discardEarlyFetches } from '@/lib/early-fetch';
import { forgetOfflineAnswers } from '@/lib/service-worker';
import { tokenStorage } from '@/lib/token-storage';
import { getCurrentUser } from '../api/get-current-user';
import { LOGIN_ERRORS, requestAccessToken, requestAccessTokenWithCode, type LoginAttempt } from '../api/login';
import { revokeSession } from '../api/logout';
import { AuthContext, type AuthContextValue, type LoginResult } from '@/lib/auth';

type AuthState = { token: string | null; user: User | null; loading: boolean };

type AuthAction =
  | { type: 'loading' }
  | { type: 'token'; token: string }
  | { type: 'signed-in'; token: string; user: User }
  | { type: 'signed-out' }
  | { type: 'settled' };

function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'loading':
      return { ...state, loading: true };
    case 'token':
      return { ...state, token: action.token };
    case 'signed-in':
      return { token: action.token, user: action.user, loading: false };
    case 'signed-out':
      return { token: null, user: null, loading: false };
    case 'settled':
      return { ...state, loading: false };
  }
}

const initialState: AuthState = { token: null, user: null, loading: true };

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(authReducer, initialState);
  const queryClient = useQueryClient();

  // Start-up: a stored token is trusted only once the server returns its user.
  useEffect(() => {
    const controller = new AbortController();
    const storedToken = tokenStorage.get();

    void (async () => {
      if (!storedToken) {
        await Promise.resolve();
        if (!controller.signal.aborted) dispatch({ type: 'signed-out' });
        return;
      }
      setAccessToken(storedToken);
      try {
        const user = await getCurrentUser({ signal: controller.signal });
        // A transition: while the signed-in page's code is still loading, the check's loader stays
        // until the page can be drawn, instead of giving way to another loader (and React holding
        // the page back up to 300 ms after that one, see app/router.tsx).
        if (!controller.signal.aborted) startTransition(() => dispatch({ type: 'signed-in', token: storedToken, user }));
      } catch (error) {
        if (controller.signal.aborted) return;
        // A stale or revoked token: sign out silently. A server out of reach, or a page left
        // while its answer was arriving, says nothing of the token: it stays for the next visit.
        // The reads started with it at page load go: nobody is signed in to take them.
        setAccessToken(null);
        discardEarlyFetches();
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          tokenStorage.clear();
          forgetOfflineAnswers(storedToken);
        }
        dispatch({ type: 'signed-out' });
      }
    })();

    return () => controller.abort();
  }, []);

  // The token is kept in state and storage, then its user is loaded: the common end of a login.
  const adoptToken = useCallback(
    async (token: string): Promise<LoginResult> => {
      // Reads started at page load for another token are not this session's.
      discardEarlyFetches();
      dispatch({ type: 'token', token });
      tokenStorage.set(token);
      setAccessToken(token);

      let user: User;
      try {
        user = await getCurrentUser();
      } catch {
        setAccessToken(null);
        tokenStorage.clear();
        dispatch({ type: 'signed-out' });
        return { success: false, error: LOGIN_ERRORS.userFetch };
      }

      // Another account's lists must never show, even for an instant.
      queryClient.clear();
      dispatch({ type: 'signed-in', token, user });
      return { success: true };
    },
    [queryClient],
  );

  const settle = useCallback(
    async (attempt: LoginAttempt): Promise<LoginResult> => {
      if (!attempt.ok) {
        dispatch({ type: 'settled' });
        return { success: false, error: attempt.error };
      }
      if ('challenge' in attempt) {
        dispatch({ type: 'settled' });
        return { success: false, challenge: attempt.challenge };
      }
      return adoptToken(attempt.token);
    },
    [adoptToken],
  );

  const login = useCallback(
    async (email: string, password: string, rememberMe = false): Promise<LoginResult> => {
      dispatch({ type: 'loading' });
      try {
        // The specification's body, {email, password}; `rememberMe` only when the box is ticked.
        return await settle(await requestAccessToken(rememberMe ? { email, password, rememberMe } : { email, password }));
      } catch {
        dispatch({ type: 'settled' });
        return { success: false, error: LOGIN_ERRORS.network };
      }
    },
    [settle],
  );

  const loginWithCode = useCallback(
    async (challenge: string, code: string): Promise<LoginResult> => {
      dispatch({ type: 'loading' });
      try {
        return await settle(await requestAccessTokenWithCode(challenge, code));
      } catch {
        dispatch({ type: 'settled' });
        return { success: false, error: LOGIN_ERRORS.network };
      }
    },
    [settle],
  );

  const refreshUser = useCallback(async () => {
    const token = state.token;
    if (!token) return;
    const user = await getCurrentUser();
    dispatch({ type: 'signed-in', token, user });
  }, [state.token]);

  const startSession = useCallback(
    async (token: string): Promise<LoginResult> => {
      dispatch({ type: 'loading' });
      try {
        return await adoptToken(token);
      } catch {
        dispatch({ type: 'settled' });
        return { success: false, error: LOGIN_ERRORS.network };
      }
    },
    [adoptToken],
  );

  // What the service worker kept for offline use goes with the session.
  const forget = useCallback(() => {
    forgetOfflineAnswers(getAccessToken());
    setAccessToken(null);
    discardEarlyFetches();
    tokenStorage.clear();
    queryClient.clear();
    dispatch({ type: 'signed-out' });
  }, [queryClient]);

  // « Déconnexion »: the server ends the session (its token is refused at once), then the browser forgets it.
  const logout = useCallback(() => {
    revokeSession();
    forget();
  }, [forget]);

  // The server refusing the token anywhere (an ended session) signs out; the access guard
  // then asks to log in again and comes back to the page.
  useEffect(() => {
    setUnauthorizedHandler(forget);
    return () => setUnauthorizedHandler(null);
  }, [forget]);

  const value = useMemo<AuthContextValue>(
    () => ({ token: state.token, user: state.user, loading: state.loading, login, loginWithCode, refreshUser, startSession, logout }),
    [state, login, loginWithCode, refreshUser, startSession, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
