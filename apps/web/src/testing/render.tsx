import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { setAccessToken } from '@/lib/api-client';
import { AuthContext, type AuthContextValue } from '@/lib/auth';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export function fakeAuth(overrides: Partial<AuthContextValue> = {}): AuthContextValue {
  return {
    token: 'token-123',
    user: {
      id: '9f0c6b1e-5d8a-4f6b-9a34-2b1f0e7c1d11',
      name: 'Camille Martin',
      email: 'camille@boutique.fr',
      role: 'admin',
      organization: { id: '1b7e2c3d-4a5b-4c6d-8e9f-0a1b2c3d4e5f', name: 'Démo Boutique' },
    },
    loading: false,
    login: async () => ({ success: true }),
    loginWithCode: async () => ({ success: true }),
    refreshUser: async () => undefined,
    startSession: async () => ({ success: true }),
    logout: () => undefined,
    ...overrides,
  };
}

/** Shows the current location, to assert on navigation. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}${location.hash}`}</output>;
}

type Options = {
  auth?: AuthContextValue;
  path?: string;
  initialEntries?: (string | { pathname: string; state?: unknown })[];
  routes?: ReactNode;
  queryClient?: QueryClient;
} & Omit<RenderOptions, 'wrapper'>;

/** Renders inside a memory router, a query client and a given auth state. */
export function renderWithProviders(ui: ReactElement, options: Options = {}) {
  const { auth = fakeAuth(), path = '/', initialEntries = [path], routes, queryClient = createTestQueryClient(), ...rest } = options;
  // The API client carries the session's token, as the auth provider sets it in the app.
  setAccessToken(auth.token);
  const result = render(
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={initialEntries}>
          <Routes>
            <Route path={path} element={ui} />
            {routes}
            <Route path="*" element={<LocationProbe />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </QueryClientProvider>,
    rest,
  );
  return { ...result, queryClient };
}

/** A JSON answer for a stubbed fetch. */
export function jsonResponse(status: number, body: unknown, statusText = ''): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}
