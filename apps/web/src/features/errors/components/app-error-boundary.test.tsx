import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { Link, Route, useLocation } from 'react-router';
import { renderWithProviders } from '@/testing/render';
import { AppErrorBoundary } from './app-error-boundary';

function Broken(): never {
  throw new Error('Cannot read properties of undefined (reading "name")');
}

function Shell({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <AppErrorBoundary resetKey={location.key}>{children}</AppErrorBoundary>;
}

beforeEach(() => {
  // React reports the caught error on the console; the test asserts on the screen instead.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('AppErrorBoundary', () => {
  it("shows the 500 page titled 'Erreur Inattendue' with the technical message", () => {
    renderWithProviders(
      <Shell>
        <Broken />
      </Shell>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Erreur Inattendue' })).toBeInTheDocument();
    expect(screen.getByTestId('error-code')).toHaveTextContent('500');
    expect(screen.getByText('Cannot read properties of undefined (reading "name")')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Retourner à l'accueil" })).toHaveAttribute('href', '/');
  });

  it('renders its children when nothing fails', () => {
    renderWithProviders(
      <Shell>
        <p>Tout va bien</p>
      </Shell>,
    );
    expect(screen.getByText('Tout va bien')).toBeInTheDocument();
    expect(screen.queryByText('Erreur Inattendue')).not.toBeInTheDocument();
  });

  it('recovers on the next navigation', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <Shell>
        <Broken />
      </Shell>,
      {
        path: '/casse',
        routes: (
          <Route
            path="/"
            element={
              <Shell>
                <p>Accueil</p>
                <Link to="/casse">Casse</Link>
              </Shell>
            }
          />
        ),
      },
    );
    await user.click(screen.getByRole('link', { name: "Retourner à l'accueil" }));
    expect(screen.getByText('Accueil')).toBeInTheDocument();
  });
});
