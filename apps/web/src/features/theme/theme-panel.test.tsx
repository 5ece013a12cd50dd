import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readThemeChoice, THEME_STORAGE_KEY, themeOf, useSignedInTheme } from '@/lib/theme';
import { ThemePanel } from './theme-panel';

function deviceIsDark(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: dark && query === '(prefers-color-scheme: dark)',
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

function SignedInPage({ active = true }: { active?: boolean }) {
  useSignedInTheme(active);
  return <ThemePanel />;
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('theme', () => {
  it('is light unless chosen dark or left to a device set to dark', () => {
    expect(themeOf('system', false)).toBe('light');
    expect(themeOf('system', true)).toBe('dark');
    expect(themeOf('light', true)).toBe('light');
    expect(themeOf('dark', false)).toBe('dark');
  });

  it('ignores a stored value it does not know', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'violet');
    expect(readThemeChoice()).toBe('system');
  });

  it('follows the device by default and the person’s choice once made, kept in the browser', async () => {
    deviceIsDark(true);
    const { unmount } = render(<SignedInPage />);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(screen.getByRole('radio', { name: 'Automatique' })).toBeChecked();

    await userEvent.click(screen.getByRole('radio', { name: 'Clair' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');

    await userEvent.click(screen.getByRole('radio', { name: 'Automatique' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();

    // Leaving the signed-in pages gives the public ones their own look back.
    unmount();
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('leaves pages outside the signed-in app alone', () => {
    deviceIsDark(false);
    render(<SignedInPage active={false} />);
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });
});
