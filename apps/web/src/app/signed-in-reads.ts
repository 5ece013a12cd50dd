import { startCurrentUserRead } from '@/features/auth/api/get-current-user';
import { startNetworkReads, startSitesRead } from '@/features/sites/api/network-reads';
import { startTaskReads } from '@/features/tasks/api/task-reads';

/**
 * The reads of a signed-in page worth starting with the session check, by address. Only where they
 * pay: « Réseau » waits on a read of the whole chain (500 shops for a direction), and « Tâches du
 * jour » is opened on a shop's phone, often on a slow network, with a task to fill at once: their
 * reads would otherwise leave only once the session is checked, the frame drawn and the screen's
 * code loaded.
 */
const PAGE_READS: Record<string, (token: string) => void> = {
  '/dashboard/reseau': startNetworkReads,
  '/dashboard/taches': (token) => {
    startTaskReads(token);
    startSitesRead(token);
  },
};

/**
 * A returning user (`token`: the stored one) opening a signed-in page: the session check and the
 * page's own reads leave at once, at page load, instead of one after the other; the queries take
 * their answers from lib/early-fetch.ts once the session is confirmed. Nothing for a signed-out
 * visitor or a public page. Free of React and of the router, so that it can run before the rest
 * of the app's code is even evaluated (see start-reads.ts).
 */
export function startSignedInReads(pathname: string, token: string | null): void {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '').toLowerCase() : pathname;
  if (!token || (path !== '/dashboard' && !path.startsWith('/dashboard/'))) return;
  startCurrentUserRead(token);
  PAGE_READS[path]?.(token);
}
