/**
 * The app's service worker (apps/web/public/sw.js) as Chromium runs it: found among the context's
 * workers, its notifications read from inside it, and its own `notificationclick` listener run on
 * one of them. Pushes are delivered through the DevTools protocol, as a push service delivers them.
 */
import { expect, type BrowserContext, type Page, type Worker } from '@playwright/test';

export const SERVICE_WORKER_PATH = '/sw.js';

/** A notification the worker shows, as `registration.getNotifications()` gives it back. */
export type ShownNotification = {
  title: string;
  body: string;
  tag: string;
  actions: { action: string; title: string }[];
  data: { url?: string; alertId?: string } | null;
};

/** What the worker's scope offers that the DOM types (a page's) do not describe. */
type WorkerScope = {
  registration: ServiceWorkerRegistration;
  ExtendableEvent: { prototype: { waitUntil: (this: Event, promise: Promise<unknown>) => void } };
  NotificationEvent: new (type: 'notificationclick', init: { notification: Notification; action?: string }) => Event;
  dispatchEvent: (event: Event) => boolean;
};

/** Chromium keeps a notification's actions; TypeScript's DOM types do not list them. */
type NotificationWithActions = Notification & { actions?: readonly { action: string; title: string }[] };

/** The worker among the context's, once Chromium has started it (it may already have). */
function workerAt(context: BrowserContext, url: string, timeout: number): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      context.off('serviceworker', onWorker);
    };
    const onWorker = (worker: Worker) => {
      if (worker.url() !== url) return;
      finish();
      resolve(worker);
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`No service worker at ${url} within ${timeout} ms.`));
    }, timeout);
    // Listening first, then looking at the known ones: a worker starting in between is not missed.
    context.on('serviceworker', onWorker);
    const known = context.serviceWorkers().find((worker) => worker.url() === url);
    if (known) onWorker(known);
  });
}

/**
 * The app's worker once it is activated and controls `page` (its `activate` claims the open
 * pages): from then on a push reaches it and its `notificationclick` can move the page.
 */
export async function activeServiceWorker(page: Page, origin: string): Promise<Worker> {
  const url = `${origin}${SERVICE_WORKER_PATH}`;
  // The app registers it once the page has loaded; asking again only waits for that registration.
  await page.evaluate((script) => navigator.serviceWorker.register(script, { scope: '/' }).then(() => undefined), SERVICE_WORKER_PATH);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), {
      message: 'the page is controlled by an activated service worker',
    })
    .toBe('activated');
  const worker = await workerAt(page.context(), url, 10_000);
  await expect
    .poll(() => worker.evaluate(() => (self as unknown as WorkerScope).registration.active?.state ?? null), {
      message: 'the worker Playwright sees is the registration’s active one',
    })
    .toBe('activated');
  return worker;
}

/** The notifications the worker shows now, read from inside it. */
export function shownNotifications(worker: Worker): Promise<ShownNotification[]> {
  return worker.evaluate(async () => {
    const scope = self as unknown as WorkerScope;
    return (await scope.registration.getNotifications()).map((notification: NotificationWithActions) => ({
      title: notification.title,
      body: notification.body,
      tag: notification.tag,
      actions: (notification.actions ?? []).map(({ action, title }) => ({ action, title })),
      data: (notification.data as ShownNotification['data']) ?? null,
    }));
  });
}

/**
 * Clicks the notification tagged `tag`, on `action` or on its body (no action): a
 * `notificationclick` dispatched in the worker, whose own listener runs. The work it hands to
 * `event.waitUntil` is awaited here (a browser would keep the worker alive for it), and its
 * failure fails the call. Returns how many pieces of work the listener handed over.
 */
export function clickNotification(worker: Worker, tag: string, action?: string): Promise<number> {
  return worker.evaluate(
    async ({ tag: wanted, action: chosen }) => {
      const scope = self as unknown as WorkerScope;
      const notification = (await scope.registration.getNotifications({ tag: wanted }))[0];
      if (!notification) throw new Error(`No notification tagged ${wanted} is shown.`);
      const event = new scope.NotificationEvent(
        'notificationclick',
        chosen === undefined ? { notification } : { notification, action: chosen },
      );
      // An event dispatched from a script may not extend itself: its listener's work is collected instead.
      const work: Promise<unknown>[] = [];
      Object.defineProperty(event, 'waitUntil', {
        value: (promise: Promise<unknown>) => {
          work.push(Promise.resolve(promise));
        },
      });
      scope.dispatchEvent(event);
      await Promise.all(work);
      return work.length;
    },
    { tag, action },
  );
}

/** The worker's scope once `watchPushes` has run: the work of every push event since. */
type WatchedScope = WorkerScope & { pushWork?: Promise<unknown>[] };

/**
 * From now on, the work each push event hands to `event.waitUntil` is kept aside (the worker's
 * own listener still gets the event as before); returns how many pushes were handled so far.
 */
function watchPushes(worker: Worker): Promise<number> {
  return worker.evaluate(() => {
    const scope = self as unknown as WatchedScope;
    if (!scope.pushWork) {
      const work: Promise<unknown>[] = [];
      const { waitUntil } = scope.ExtendableEvent.prototype;
      scope.ExtendableEvent.prototype.waitUntil = function (this: Event, promise: Promise<unknown>) {
        if (this.type === 'push') work.push(Promise.resolve(promise));
        waitUntil.call(this, promise);
      };
      scope.pushWork = work;
    }
    return scope.pushWork.length;
  });
}

/**
 * Delivers `message` (JSON) to the worker, as a push service does, and returns once the worker
 * has handled it: the work its `push` listener hands to `event.waitUntil` (showing the
 * notification) is complete, and its failure fails the call. Reading the notifications while one
 * is still being shown may lose it from `getNotifications()` for good: they are read after this.
 * The registration's id comes from the DevTools protocol, which lists the registrations.
 */
export async function deliverPush(page: Page, worker: Worker, origin: string, message: object, timeout = 10_000): Promise<void> {
  const handled = await watchPushes(worker);
  const cdp = await page.context().newCDPSession(page);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const scope = `${origin}/`;
    const registrationId = new Promise<string>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`No service worker registration for ${scope} within ${timeout} ms.`)), timeout);
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const found = registrations.find((entry) => entry.scopeURL === scope && !entry.isDeleted);
        if (found) resolve(found.registrationId);
      });
    });
    // Enabling lists the registrations already known.
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registrationId, data: JSON.stringify(message) });
  } finally {
    clearTimeout(timer);
    await cdp.detach();
  }
  await expect
    .poll(() => worker.evaluate(() => (self as unknown as WatchedScope).pushWork?.length ?? 0), {
      message: 'the worker receives the push',
      timeout,
    })
    .toBeGreaterThan(handled);
  await worker.evaluate(async (from) => {
    await Promise.all((self as unknown as WatchedScope).pushWork?.slice(from) ?? []);
  }, handled);
}
