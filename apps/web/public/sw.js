/*
 * Vigie's service worker, registered by every page of the app (src/lib/service-worker.ts):
 * - shows the alerts the server pushes (docs/api.md, Notifications poussées) and opens their page;
 * - keeps the app usable offline: pages are asked of the network first, the stored shell answers
 *   when it cannot be reached; the build's hashed files (/assets/…, never changed) come from the
 *   cache first;
 * - keeps the last answer of the few reads the dashboard shows (KEPT_READS), per signed-in session:
 *   an answer is stored under the user and the session its bearer token names, and given back, when
 *   the network fails, only to a request naming that same user and session, marked with the time it
 *   was stored (`x-vigie-offline`). Another account, or another session, gets « Hors connexion. ».
 *   A sign-out deletes them (message `vigie:forget-session`).
 * Nothing else is touched: writes, the live stream, the other reads and other origins go to the
 * network as if there were no worker.
 */
/* global self, caches */
const ACKNOWLEDGE = 'prendre-en-compte';

// Written by the build (vite.config.ts): the build's id, and its hashed files to keep for offline use.
const BUILD = '__VIGIE_BUILD__';
const BUILD_ASSETS = [/* __VIGIE_ASSETS__ */];

const SHELL_CACHE = `vigie-shell-${BUILD}`;
/** The app's page (every route answers the same index.html) and the files outside /assets/ it shows. */
const SHELL = '/';
const SHELL_FILES = [SHELL, '/favicon.svg', '/manifest.webmanifest', '/icon-192.png', '/apple-touch-icon.png'];

/** The reads whose last answer is kept for offline use, per session: what the dashboard and « Tâches du jour » show. */
const KEPT_READS = new Set([
  '/api/user/me',
  '/api/sites',
  '/api/sensor',
  '/api/emitter',
  '/api/alerts',
  '/api/insights/watch',
  // « Tâches du jour » opens in a cold room: the day's tasks and the processes under way.
  '/api/tasks',
  '/api/processes',
]);
/** One cache per session, `vigie-api-v1:<user>:<session>`: the version changes with the format. */
const API_CACHE_PREFIX = 'vigie-api-';
const API_CACHE_VERSION = `${API_CACHE_PREFIX}v1:`;
const OFFLINE_HEADER = 'x-vigie-offline';
const STORED_AT_HEADER = 'x-vigie-stored-at';
/** A proxy answering for a server it cannot reach: the stored answer is better. */
const UNREACHABLE = new Set([502, 503, 504]);
const OFFLINE_MESSAGE = 'Hors connexion.';

/** The claims of a bearer token, decoded without checking its signature (the server does that). */
function claimsOf(token) {
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))));
    return claims && typeof claims === 'object' ? claims : null;
  } catch {
    return null;
  }
}

/**
 * The session a token names: its cache (user `sub` and session `sid`, which the server signs) and
 * its end (`exp`). Null for a token that names no user, no session or no end: nothing is kept for it.
 */
function sessionOfToken(token) {
  const claims = claimsOf(token);
  if (!claims) return null;
  const { sub, sid, exp } = claims;
  if (typeof sub !== 'string' || !sub || typeof sid !== 'string' || !sid || typeof exp !== 'number') return null;
  return { cache: `${API_CACHE_VERSION}${encodeURIComponent(sub)}:${encodeURIComponent(sid)}`, expiresAt: exp * 1000 };
}

function sessionOfRequest(request) {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') || '');
  return match ? sessionOfToken(match[1]) : null;
}

/** What this worker does with a request: `read` (a kept read), `page`, `asset`, `shell-file`, or null (untouched). */
function routeOf(request) {
  if (request.method !== 'GET') return null;
  let url;
  try {
    url = new URL(request.url);
  } catch {
    return null;
  }
  if (url.origin !== self.location.origin) return null;
  const path = url.pathname;
  if (path === '/api' || path.startsWith('/api/')) return KEPT_READS.has(path) ? 'read' : null;
  if (request.mode === 'navigate') return /\.[a-z0-9]+$/i.test(path) ? null : 'page';
  if (path.startsWith('/assets/')) return 'asset';
  if (SHELL_FILES.includes(path) && !url.search) return 'shell-file';
  return null;
}

// Sessions signed out while this worker runs: an answer still on its way is not stored for them.
const forgotten = new Set();
// The session whose answers were stored last: storing another's deletes the others (one at a time).
let currentSession = null;

async function dropApiCaches(keep) {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(API_CACHE_PREFIX) && name !== keep).map((name) => caches.delete(name)));
}

async function storeAnswer(session, url, response) {
  if (forgotten.has(session.cache)) return;
  const headers = new Headers(response.headers);
  headers.set(STORED_AT_HEADER, new Date().toISOString());
  const body = await response.blob();
  if (forgotten.has(session.cache)) return;
  const cache = await caches.open(session.cache);
  await cache.put(url, new Response(body, { status: response.status, statusText: response.statusText, headers }));
  // Signed out meanwhile: what was just written goes too.
  if (forgotten.has(session.cache)) {
    await caches.delete(session.cache);
    return;
  }
  if (currentSession !== session.cache) {
    currentSession = session.cache;
    await dropApiCaches(session.cache);
  }
}

/** The stored answer of this very session, marked with when it was stored; null when there is none. */
async function storedAnswer(session, url) {
  if (!session || forgotten.has(session.cache) || session.expiresAt <= Date.now()) return null;
  const stored = await caches.match(url, { cacheName: session.cache, ignoreVary: true });
  if (!stored) return null;
  const headers = new Headers(stored.headers);
  headers.set(OFFLINE_HEADER, headers.get(STORED_AT_HEADER) || new Date(0).toISOString());
  headers.delete(STORED_AT_HEADER);
  return new Response(stored.body, { status: stored.status, statusText: stored.statusText, headers });
}

function offlineAnswer() {
  return new Response(JSON.stringify({ message: OFFLINE_MESSAGE }), {
    status: 503,
    statusText: 'Service Unavailable',
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** Keeps the worker alive for `work` once the answer is given (a browser refusing it simply lets it run). */
function inBackground(event, work) {
  const done = work.catch(() => undefined);
  try {
    event.waitUntil(done);
  } catch {
    // The event is over: the work still runs while the worker does.
  }
}

/** Stores a copy of `response` in this build's shell, under `key`, once it is given to the page. */
function keepInShell(event, key, response) {
  const copy = response.clone();
  inBackground(
    event,
    caches.open(SHELL_CACHE).then((cache) => cache.put(key, copy)),
  );
}

/** A kept read: the network first, its good answer stored for this session; this session's stored answer when the network fails. */
async function answerRead(event) {
  const { request } = event;
  const session = sessionOfRequest(request);
  let response;
  try {
    response = await fetch(request);
  } catch {
    return (await storedAnswer(session, request.url)) || offlineAnswer();
  }
  if (session && response.status === 200 && response.type === 'basic') {
    inBackground(event, storeAnswer(session, request.url, response.clone()));
  }
  if (UNREACHABLE.has(response.status)) return (await storedAnswer(session, request.url)) || response;
  return response;
}

/** A page: the network first (its shell kept up to date), the stored shell offline. */
async function answerPage(event) {
  try {
    const response = await fetch(event.request);
    const type = response.headers.get('content-type') || '';
    if (response.status === 200 && !response.redirected && type.startsWith('text/html')) {
      keepInShell(event, SHELL, response);
    }
    return response;
  } catch (error) {
    const shell = await caches.match(SHELL, { cacheName: SHELL_CACHE, ignoreVary: true });
    if (shell) return shell;
    throw error;
  }
}

/** A hashed file of the build: never changes, so the stored copy first; kept as it is fetched. */
async function answerAsset(event) {
  const stored = await caches.match(event.request, { cacheName: SHELL_CACHE, ignoreVary: true });
  if (stored) return stored;
  const response = await fetch(event.request);
  if (response.status === 200 && response.type === 'basic') {
    keepInShell(event, event.request, response);
  }
  return response;
}

/** The icons and the manifest: the network first, the stored copy offline. */
async function answerShellFile(event) {
  try {
    return await fetch(event.request);
  } catch (error) {
    const stored = await caches.match(event.request, { cacheName: SHELL_CACHE, ignoreVary: true });
    if (stored) return stored;
    throw error;
  }
}

const ANSWERS = { read: answerRead, page: answerPage, asset: answerAsset, 'shell-file': answerShellFile };

self.addEventListener('fetch', (event) => {
  const route = routeOf(event.request);
  if (route) event.respondWith(ANSWERS[route](event));
});

/** The shell and every file of the build, each on its own: one missing file does not stop the others (nor the push). */
async function precache() {
  const cache = await caches.open(SHELL_CACHE);
  const shell = SHELL_FILES.map((url) => new Request(url, { cache: 'no-cache' }));
  await Promise.all([...shell, ...BUILD_ASSETS].map((request) => cache.add(request).catch(() => undefined)));
}

/** Another build's shell, and the sessions' answers of an older format. */
async function dropOldCaches() {
  const names = await caches.keys();
  const old = names.filter(
    (name) =>
      (name.startsWith('vigie-shell-') && name !== SHELL_CACHE) ||
      (name.startsWith(API_CACHE_PREFIX) && !name.startsWith(API_CACHE_VERSION)),
  );
  await Promise.all(old.map((name) => caches.delete(name)));
}

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(precache().catch(() => undefined));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    dropOldCaches()
      .catch(() => undefined)
      .then(() => self.clients.claim()),
  );
});

/** A sign-out: the session's answers, and any other session's, are deleted; nothing more is stored for it. */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'vigie:forget-session') return;
  const session = sessionOfToken(data.token);
  if (session) forgotten.add(session.cache);
  currentSession = null;
  event.waitUntil(dropApiCaches(null).catch(() => undefined));
});

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
        // A browser may refuse the focus (it allows it only for a while after the click): the
        // window still goes to the alert, and « Prendre en compte » still takes it into account.
        await open.focus().catch(() => undefined);
        // Only a page this worker controls can be sent elsewhere; another gets a window of its own.
        const moved = await open.navigate(target).catch(() => null);
        if (moved) return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
