/**
 * The app's service worker (public/sw.js): it shows the pushed alerts, keeps the app's shell for
 * offline use, and the last answers of the dashboard's reads, per signed-in session.
 */
export const SERVICE_WORKER_URL = '/sw.js';

/** The caches of the sessions' answers (see sw.js); the shell's are `vigie-shell-<build>`. */
const API_CACHE_PREFIX = 'vigie-api-';

/** What the worker is told at sign-out: forget the answers kept for this token's session. */
export const FORGET_SESSION_MESSAGE = 'vigie:forget-session';

const serviceWorkerContainer = (): ServiceWorkerContainer | null =>
  typeof navigator !== 'undefined' && 'serviceWorker' in navigator && navigator.serviceWorker ? navigator.serviceWorker : null;

let registering: Promise<ServiceWorkerRegistration> | null = null;

/** Registers the worker for the whole app, once per page; rejects where there is none. */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration> {
  const container = serviceWorkerContainer();
  if (!container) return Promise.reject(new Error('Service worker indisponible.'));
  registering ??= container.register(SERVICE_WORKER_URL, { scope: '/' }).catch((error: unknown) => {
    registering = null;
    throw error;
  });
  return registering;
}

/**
 * At start-up, once the page has loaded (its own requests go first): registers the worker,
 * without a word when the browser has none (an insecure origin, jsdom) or refuses it.
 */
export function registerServiceWorkerOnLoad(): void {
  if (!serviceWorkerContainer()) return;
  const register = () => void registerServiceWorker().catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * At sign-out, or when the server ends the session: the worker deletes the answers it kept for
 * it (and for any other session) and stores no more of them; the page deletes them too, in case
 * no worker runs.
 */
export function forgetOfflineAnswers(token: string | null): void {
  const container = serviceWorkerContainer();
  if (container) {
    const message = { type: FORGET_SESSION_MESSAGE, token };
    if (container.controller) container.controller.postMessage(message);
    else
      void container
        .getRegistration('/')
        .then((registration) => registration?.active?.postMessage(message))
        .catch(() => undefined);
  }
  if (typeof caches === 'undefined') return;
  void caches
    .keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith(API_CACHE_PREFIX)).map((name) => caches.delete(name))))
    .catch(() => undefined);
}
