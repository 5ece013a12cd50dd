import { useEffect, useSyncExternalStore } from 'react';

/** What the person chose in « Mon compte »; « system » follows the device's light or dark setting. */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'vigie_theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';
const CHANGED = 'vigie-theme-changed';

function isChoice(value: unknown): value is ThemeChoice {
  return value === 'system' || value === 'light' || value === 'dark';
}

export function readThemeChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isChoice(stored) ? stored : 'system';
  } catch {
    // Storage refused (private mode): the device's setting.
    return 'system';
  }
}

export function saveThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Kept for this page only.
  }
  window.dispatchEvent(new Event(CHANGED));
}

function prefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** The theme a choice gives on this device: light unless chosen dark, or left to a device set to dark. */
export function themeOf(choice: ThemeChoice, deviceDark: boolean): Theme {
  if (choice === 'system') return deviceDark ? 'dark' : 'light';
  return choice;
}

function subscribe(onChange: () => void): () => void {
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  media?.addEventListener('change', onChange);
  window.addEventListener(CHANGED, onChange);
  // Another tab's choice.
  window.addEventListener('storage', onChange);
  return () => {
    media?.removeEventListener('change', onChange);
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

const snapshot = () => `${readThemeChoice()}|${prefersDark() ? 'dark' : 'light'}`;

/** The stored choice and the theme it gives now, following the device and other tabs. */
export function useTheme(): { choice: ThemeChoice; theme: Theme } {
  const [choice, device] = useSyncExternalStore(subscribe, snapshot, () => 'system|light').split('|') as [ThemeChoice, Theme];
  return { choice, theme: themeOf(choice, device === 'dark') };
}

/**
 * Puts the signed-in pages in their theme while `active`: `data-theme` on the root element, which
 * the palette of `styles/light-palette.css` follows. The landing, sign-in and error pages keep the
 * specification's dark look and are never themed.
 */
export function useSignedInTheme(active: boolean): void {
  const { theme } = useTheme();
  useEffect(() => {
    if (!active) return;
    const root = document.documentElement;
    root.dataset.theme = theme;
    return () => {
      delete root.dataset.theme;
    };
  }, [active, theme]);
}
