import { TOKEN_STORAGE_KEY } from '@/config/constants';

// Storage can be unavailable (private browsing, disabled cookies): the app then keeps the
// session in memory only instead of failing.
export const tokenStorage = {
  get(): string | null {
    try {
      return window.localStorage.getItem(TOKEN_STORAGE_KEY);
    } catch {
      return null;
    }
  },
  set(token: string): void {
    try {
      window.localStorage.setItem(TOKEN_STORAGE_KEY, token);
    } catch {
      // Memory only.
    }
  },
  clear(): void {
    try {
      window.localStorage.removeItem(TOKEN_STORAGE_KEY);
    } catch {
      // Nothing stored.
    }
  },
};
