import type { PushPublicKeyResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { registerServiceWorker } from '@/lib/service-worker';

/** Where this browser stands with pushed alerts. */
export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

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
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'off';
  const registration = await serviceWorker();
  const { publicKey } = await call<PushPublicKeyResponse>(endpoints.push.publicKey);
  const existing = await registration.pushManager.getSubscription();
  const subscription =
    existing ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  await call(endpoints.push.subscribe, { body: subscription.toJSON() });
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
