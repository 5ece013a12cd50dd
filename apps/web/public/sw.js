/*
 * Vigie's service worker: shows the alerts the server pushes (docs/api.md, Notifications poussées)
 * and opens their page. It caches nothing: no answer of the API is ever kept on the device.
 */
/* global self */
const ACKNOWLEDGE = 'prendre-en-compte';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** The page of a pushed alert, on this origin only: a message cannot send the app elsewhere. */
function pageOf(data, acknowledge) {
  let path = '/dashboard/alertes';
  try {
    path = new URL(data && data.url ? data.url : path, self.location.origin).pathname;
  } catch {
    // Keep the alerts' list.
  }
  if (!path.startsWith('/dashboard/')) path = '/dashboard/alertes';
  return `${self.location.origin}${path}${acknowledge ? `?${ACKNOWLEDGE}=1` : ''}`;
}

self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Alerte Vigie';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      renotify: typeof data.tag === 'string',
      requireInteraction: true,
      icon: '/favicon.svg',
      lang: 'fr',
      data: { url: data.url, alertId: data.alertId },
      actions: data.alertId ? [{ action: ACKNOWLEDGE, title: 'Prendre en compte' }] : [],
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = pageOf(event.notification.data, event.action === ACKNOWLEDGE);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        // Only a page this worker controls can be sent elsewhere; another gets a window of its own.
        const moved = await open.navigate(target).catch(() => null);
        if (moved) return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
