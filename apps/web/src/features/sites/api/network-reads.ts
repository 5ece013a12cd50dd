import { endpoints } from '@vigie/contract/routes';
import { endpointPath } from '@/lib/api-client';
import { startEarlyFetch } from '@/lib/early-fetch';

// Apart from the queries (get-overview.ts) so that the app's entry, which starts these reads at page
// load, carries these few lines and not the queries' code.
export const OVERVIEW_PATH = endpointPath(endpoints.overview.get);
export const REGIONS_PATH = endpointPath(endpoints.regions.list);
export const SITES_PATH = endpointPath(endpoints.sites.list);

/**
 * « Réseau » opened afresh by a returning user (app/signed-in-reads.ts, at page load): its two
 * reads leave with the session check instead of after the frame and the screen's code;
 * `useOverview` and `useRegions` take their answers.
 */
export function startNetworkReads(token: string): void {
  startEarlyFetch(OVERVIEW_PATH, token);
  startEarlyFetch(REGIONS_PATH, token);
}

/** The shops' list started at page load, for a screen that names them at once (« Tâches du jour »). */
export function startSitesRead(token: string): void {
  startEarlyFetch(SITES_PATH, token);
}
