import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { registerServiceWorker } from '@/lib/service-worker';

/** Where this browser stands with pushed alerts. */
export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

/** The browser's own steps may never answer (a prompt left open, a worker that does not start): how long each may take. */
export const PUSH_STEP_TIMEOUT_MS = 10_000;

/** A failure of the browser's push machinery, said in French with what to do. */
export class PushProblem extends Error {}

export const PUSH_MESSAGES = {
  dismissed:
    'Vous n’avez pas répondu à la demande du navigateur\u202F: cliquez de nouveau sur le bouton, puis choisissez «\u202FAutoriser\u202F».',
  refused:
    'Le navigateur a refusé d’abonner cet appareil aux notifications (permission refusée)\u202F: autorisez les notifications pour ce site dans ses réglages, puis réessayez.',
  unreachable:
    'Le service de notifications du navigateur n’a pas répondu (connexion, ou notifications désactivées dans le système)\u202F: vérifiez la connexion et les réglages de notification de l’appareil, puis réessayez.',
  worker: 'Le navigateur n’a pas démarré le service qui affiche les notifications\u202F: rechargez la page, puis réessayez.',
  prompt:
    'Le navigateur n’a pas affiché sa demande d’autorisation, ou elle attend encore\u202F: cherchez-la près de la barre d’adresse, ou autorisez les notifications pour ce site dans ses réglages, puis réessayez.',
  unknown: 'Les notifications n’ont pas pu être activées sur cet appareil\u202F: rechargez la page, puis réessayez.',
} as const;

/**
 * What to tell the person of a failure: never the browser's own English words (« Registration
 * failed - permission denied »), always what happened and what to do, in French. A server's
 * refusal keeps its own French message.
 */
export function pushErrorMessage(error: unknown, fallback: string = PUSH_MESSAGES.unknown): string {
  if (error instanceof PushProblem) return error.message;
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  if (/^(NotAllowed|Abort|InvalidState|NotSupported)Error$/.test(name)) {
    if (name === 'NotAllowedError') return PUSH_MESSAGES.refused;
    if (name === 'AbortError') return PUSH_MESSAGES.unreachable;
    if (name === 'InvalidStateError') return PUSH_MESSAGES.worker;
    return fallback;
  }
  // The API client's errors are the server's French messages; anything else is the browser's.
  if (error instanceof Error && error.name === 'ApiError' && error.message.trim()) return error.message;
  return fallback;
}

/** A browser step that must answer in time, or fail with what to do. */
function inTime<T>(step: Promise<T>, message: string, ms = PUSH_STEP_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PushProblem(message)), ms);
    step.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        // As thrown: a DOMException keeps its name, which says what happened.
        reject(error as Error);
      },
    );
  });
}

export const pushSupported = () =>
  typeof window !== 'undefined' &&
  window.isSecureContext &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

/** The server's key as `pushManager.subscribe` takes it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(
    base64url
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(base64url.length / 4) * 4, '='),
  );
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The app's service worker, which shows the pushed alerts (every page registers it: see main.tsx), once active. */
export async function serviceWorker(): Promise<ServiceWorkerRegistration> {
  await registerServiceWorker();
  return navigator.serviceWorker.ready;
}

export async function currentPushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && Notification.permission === 'granted' ? 'on' : 'off';
}

/** Asks the person, subscribes this browser with the server's key, and gives the subscription to the server. */
export async function turnPushOn(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await inTime(Notification.requestPermission(), PUSH_MESSAGES.prompt, 60_000);
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') throw new PushProblem(PUSH_MESSAGES.dismissed);
  const registration = await inTime(serviceWorker(), PUSH_MESSAGES.worker);
  const { publicKey } = await call(endpoints.push.publicKey);
  const existing = await registration.pushManager.getSubscription();
  const subscription =
    existing ??
    (await inTime(
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }),
      PUSH_MESSAGES.unreachable,
    ));
  // What the browser gives as its JSON leaves every field optional; a subscription always has them.
  const { endpoint, keys, expirationTime } = subscription.toJSON();
  const p256dh = keys?.['p256dh'];
  const auth = keys?.['auth'];
  if (!endpoint || !p256dh || !auth) throw new PushProblem(PUSH_MESSAGES.unknown);
  await call(endpoints.push.subscribe, { body: { endpoint, keys: { p256dh, auth }, expirationTime: expirationTime ?? null } });
  return 'on';
}

/** The server forgets this browser, then the browser drops its subscription. */
export async function turnPushOff(): Promise<PushState> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) {
    await call(endpoints.push.unsubscribe, { body: { endpoint: subscription.endpoint } });
    await subscription.unsubscribe();
  }
  return 'off';
}
