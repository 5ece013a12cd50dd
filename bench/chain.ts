/**
 * npm run bench:chain — a chain of 500 shops × 20 sensors in 25 regions, on PostgreSQL, through
 * the real server: `GET /api/overview` for the quality director (every shop), and what the scope
 * costs on `GET /api/sensor` — a district manager's list (one region) against the same request
 * of the director, both measured in this run — then, in Debian's Chromium on the production build,
 * how soon the « Réseau » screen shows its first shop to the director (and, for information, to the
 * district manager). Prints each figure beside its budget and exits non-zero when one is missed.
 * Needs a PostgreSQL server (`PG_ADMIN_URL`, the local one by default) and Chromium (`CHROMIUM_PATH`).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { type BrowserContext, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { BENCH_ACCOUNT, benchLogin, ensureBuilt, fmt, json, root, startServer } from './support';

const SHOPS = 500;
const SENSORS_PER_SHOP = 20;
const REGIONS = 25;
const CONCURRENCY = 16;
const SAMPLES = 60;
const BUDGETS = { overviewP95Ms: 200, scopeCost: 1.1, networkFirstShopMs: 1000 };
const NETWORK_ROUNDS = 3;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const median = (values: number[]) => percentile(values, 50);

// The same check as `npm run bench:fleet` runs before it: Chromium is there, or the reason it is not.
if (spawnSync(process.execPath, ['scripts/ensure-chromium.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
// The « Réseau » screen is measured on the production build that the server serves.
ensureBuilt('all');
const database = `vigie_bench_chain_${Date.now()}`;
const pg = (action: 'create' | 'drop') =>
  spawnSync(process.execPath, ['scripts/pg-database.mjs', action, database], { cwd: root, encoding: 'utf8' });
if (pg('create').status !== 0) throw new Error('Base PostgreSQL de mesure impossible à créer (PG_ADMIN_URL).');
const databaseUrl = `${(process.env['PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres').replace(/\/[^/]*$/, '')}/${database}`;
const server = await startServer({ DATABASE_URL: databaseUrl, DEMO_SIMULATOR: 'false', INSIGHTS_INTERVAL_SECONDS: '0' });
process.on('exit', () => {
  server.child.kill('SIGKILL');
  pg('drop');
});
const directorToken = await benchLogin(server);
const director = { authorization: `Bearer ${directorToken}` };
const post = <T>(path: string, body: object, headers = director) =>
  json<T>(`${server.base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

// The chain: regions, shops in them, sensors installed in each shop by the device protocol.
const started = Date.now();
const regions: string[] = [];
for (let r = 0; r < REGIONS; r += 1)
  regions.push((await post<{ region: { id: string } }>('/api/regions', { name: `Région ${r + 1}` })).region.id);
const shops: string[] = [];
let nextShop = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let n = nextShop++; n < SHOPS; n = nextShop++) {
      shops[n] = (await post<{ site: { id: string } }>('/api/sites', { name: `Magasin ${n + 1}`, regionId: regions[n % REGIONS] })).site.id;
    }
  }),
);
const { installationKey } = await json<{ installationKey: string }>(`${server.base}/api/organization/installation-key`, {
  headers: director,
});
let nextSensor = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let n = nextSensor++; n < SHOPS * SENSORS_PER_SHOP; n = nextSensor++) {
      await post('/api/devices/provision', {
        installationKey,
        serial: `CHAINE-${randomUUID().slice(0, 12)}`,
        kind: 'sensor',
        name: `Sonde ${n + 1}`,
        site: shops[n % SHOPS],
      });
    }
  }),
);
console.log(`${fmt(SHOPS)} magasins, ${fmt(SHOPS * SENSORS_PER_SHOP)} capteurs créés en ${fmt((Date.now() - started) / 1000)} s`);

// A district manager: a member of the same organization whose scope is one region (20 shops).
const district = { email: `secteur-${randomUUID()}@example.fr`, password: 'mot de passe du secteur' };
const created = spawnSync(
  process.execPath,
  ['apps/server/dist/user-create.js', '--email', district.email, '--password', district.password, '--org', BENCH_ACCOUNT.org],
  { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' },
);
if (created.status !== 0) throw new Error(`Compte du secteur impossible à créer : ${created.stderr}`);
const { members } = await json<{ members: { id: string; email: string }[] }>(`${server.base}/api/members`, { headers: director });
const member = members.find((candidate) => candidate.email === district.email);
if (!member) throw new Error('Compte du secteur introuvable.');
await json(`${server.base}/api/members/${member.id}`, {
  method: 'PUT',
  headers: director,
  body: JSON.stringify({ role: 'viewer', scope: { regionIds: [regions[0]] } }),
});
const { accessToken } = await post<{ accessToken: string }>('/api/auth/login', district, {} as typeof director);
const scoped = { authorization: `Bearer ${accessToken}` };

async function timed(path: string, headers: Record<string, string>): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${server.base}${path}`, { headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return performance.now() - start;
}

// Warm-up, then the samples, alternated so that both lists see the same machine.
for (let i = 0; i < 5; i += 1) {
  await timed('/api/overview', director);
  await timed('/api/sensor?limit=100', director);
  await timed('/api/sensor?limit=100', scoped);
}
const overview: number[] = [];
const whole: number[] = [];
const inScope: number[] = [];
for (let i = 0; i < SAMPLES; i += 1) {
  overview.push(await timed('/api/overview', director));
  whole.push(await timed('/api/sensor?limit=100', director));
  inScope.push(await timed('/api/sensor?limit=100', scoped));
}
const { sites } = await json<{ sites: { name: string }[] }>(`${server.base}/api/overview`, { headers: director });
const districtSites = (await json<{ sites: { name: string }[] }>(`${server.base}/api/overview`, { headers: scoped })).sites;

// The « Réseau » screen (/dashboard/reseau), last, so that the browser does not share the machine
// with the request samples above.
interface NetworkOpening {
  /** From the page's navigation start to the frame painted after the first shop row entered the DOM. */
  firstShopMs: number;
  /** When the last rows entered the DOM (the table draws a first screenful, then the rest). */
  allShopsMs: number;
  rows: number;
  status: string;
  firstShop: string;
  /** Whether the app's service worker answered the page's requests (the code from its cache). */
  controlled: boolean;
  /** The document's answer and the end of its scripts' execution (DOMContentLoaded), on the same clock. */
  document: { responseEnd: number; domContentLoaded: number };
  requests: { url: string; start: number; end: number }[];
}

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

/** A browser profile signed in with `token`, where each page opening /dashboard/reseau times its first shop. */
async function signedInContext(token: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  // tsx compiles this file with esbuild's keepNames, which wraps the functions defined inside the
  // page's scripts in a `__name` helper that exists only in Node: the page gets a no-op one, first.
  await context.addInitScript('globalThis.__name = (target) => target;');
  await context.addInitScript((value) => window.localStorage.setItem('vigie_token', value), token);
  // Installed before the app's own scripts run, so that nothing it renders is missed: the moment the
  // first row is in the DOM (a mutation), then the next frame painted (requestAnimationFrame, then a
  // task after it), read on the page's clock, whose origin is the navigation's start.
  // The table draws its first rows, then the others just after: the moment the row count last
  // changed is kept too (every shop in the page).
  await context.addInitScript(() => {
    if (window.location.pathname !== '/dashboard/reseau') return;
    const page = window as unknown as { __firstShop?: number; __rows?: number; __rowsAt?: number };
    const observer = new MutationObserver(() => {
      const rows = document.querySelectorAll('[data-testid="network-site"]').length;
      if (rows === 0 || rows === page.__rows) return;
      if (page.__rows === undefined) {
        requestAnimationFrame(() =>
          setTimeout(() => {
            page.__firstShop = performance.now();
          }, 0),
        );
      }
      page.__rows = rows;
      page.__rowsAt = performance.now();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  return context;
}

/**
 * Opens /dashboard/reseau in a new page of `context` — a new document, so nothing of the previous
 * opening is in memory: the session is checked and the shops read from the server again — and
 * answers its figures once the first shop is painted. Throws, with what the screen says, when no
 * shop appears within 30 s (an error, the login page).
 */
async function openNetwork(context: BrowserContext, shops: number): Promise<NetworkOpening> {
  const page = await context.newPage();
  try {
    await page.goto(`${server.base}/dashboard/reseau`, { waitUntil: 'commit' });
    const painted = await page
      .waitForFunction(() => (window as unknown as { __firstShop?: number }).__firstShop, undefined, { timeout: 30_000 })
      .catch(async () => {
        const screen = await page.evaluate(() => document.body.innerText.replace(/\s+/g, ' ').slice(0, 300)).catch(() => '');
        throw new Error(`Vue « Réseau » : aucun magasin affiché en 30 s sur ${page.url()} : ${screen}`);
      });
    const firstShopMs = (await painted.jsonValue()) as number;
    // Every shop of the scope, a moment later; a shorter list is reported by the caller's check.
    await page
      .waitForFunction((count) => document.querySelectorAll('[data-testid="network-site"]').length >= count, shops, { timeout: 30_000 })
      .catch(() => undefined);
    const shown = await page.evaluate(() => {
      const section = document.getElementById('network-heading')?.closest('section');
      const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      return {
        allShopsMs: (window as unknown as { __rowsAt?: number }).__rowsAt ?? Number.NaN,
        rows: document.querySelectorAll('[data-testid="network-site"]').length,
        status: section?.querySelector('[role="status"]')?.textContent?.trim() ?? '',
        firstShop: document.querySelector('[data-testid="network-site"] th')?.textContent?.trim() ?? '',
        controlled: navigator.serviceWorker?.controller != null,
        document: {
          responseEnd: navigation?.responseEnd ?? Number.NaN,
          domContentLoaded: navigation?.domContentLoadedEventEnd ?? Number.NaN,
        },
        requests: performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('/api/') && !entry.name.includes('/api/stream'))
          .map((entry) => ({
            url: new URL(entry.name).pathname,
            start: entry.startTime,
            end: (entry as PerformanceResourceTiming).responseEnd,
          })),
      };
    });
    return { firstShopMs, ...shown };
  } finally {
    await page.close();
  }
}

/**
 * A returning user: one opening first, not counted, fills the profile's HTTP cache and lets the app's
 * service worker install (it stores every file of the build) and take control; each counted opening
 * is then a new page whose document comes from the server through the worker and whose JavaScript
 * chunks come from the worker's cache (or the HTTP cache), never from the network; the data, from
 * the server each time. Checks that the screen shows every shop of the scope, the worst first.
 */
async function measureNetwork(
  token: string,
  expected: { shops: number; first: string },
): Promise<{ rounds: number[]; last: NetworkOpening }> {
  const context = await signedInContext(token);
  try {
    await openNetwork(context, expected.shops);
    const ready = await context.newPage();
    await ready.goto(`${server.base}/`, { waitUntil: 'load' });
    // Without a worker (a browser that refuses it), the openings go on: the figures say so.
    await ready.evaluate(() =>
      Promise.race([
        navigator.serviceWorker.ready.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000)),
      ]),
    );
    await ready.close();
    const rounds: number[] = [];
    let last: NetworkOpening | undefined;
    for (let round = 0; round < NETWORK_ROUNDS; round += 1) {
      last = await openNetwork(context, expected.shops);
      // A screen measured on an error, an empty scope or a partial list would prove nothing.
      // The table is neither paginated nor virtualized: every shop is a row once the first screenful
      // is drawn and the rest has followed, and the count says so.
      if (last.rows !== expected.shops || last.status !== `${fmt(expected.shops)} magasins` || last.firstShop !== expected.first) {
        throw new Error(
          `Vue « Réseau » inattendue : ${last.rows} lignes, « ${last.status} », « ${last.firstShop} » en tête ` +
            `(attendu : ${expected.shops} lignes, « ${expected.first} » en tête).`,
        );
      }
      rounds.push(last.firstShopMs);
    }
    if (!last) throw new Error('Vue « Réseau » : aucune mesure.');
    return { rounds, last };
  } finally {
    await context.close();
  }
}

let directorNetwork: Awaited<ReturnType<typeof measureNetwork>>;
let districtNetwork: Awaited<ReturnType<typeof measureNetwork>>;
try {
  // The worst shop first: the head of the server's own answer.
  directorNetwork = await measureNetwork(directorToken, { shops: SHOPS, first: sites[0]?.name ?? '' });
  districtNetwork = await measureNetwork(accessToken, { shops: SHOPS / REGIONS, first: districtSites[0]?.name ?? '' });
} finally {
  await browser.close();
}
const describeRounds = ({ rounds, last }: Awaited<ReturnType<typeof measureNetwork>>) =>
  `${rounds.map((ms) => fmt(ms)).join(', ')} ms${last.controlled ? ', code servi par le service worker' : ', sans service worker'}`;
const { document: opened } = directorNetwork.last;
console.log(`Vue « Réseau » de la direction : ${describeRounds(directorNetwork)} ; la dernière ouverture :`);
console.log(`  document reçu à ${fmt(opened.responseEnd)} ms, scripts exécutés (DOMContentLoaded) à ${fmt(opened.domContentLoaded)} ms`);
for (const request of directorNetwork.last.requests) console.log(`  ${request.url} : de ${fmt(request.start)} à ${fmt(request.end)} ms`);
console.log(
  `  premier magasin peint à ${fmt(directorNetwork.last.firstShopMs)} ms, les ${fmt(directorNetwork.last.rows)} lignes dans la page à ${fmt(directorNetwork.last.allShopsMs)} ms`,
);
console.log(`Vue « Réseau » du secteur : ${describeRounds(districtNetwork)}`);

const overviewP95 = percentile(overview, 95);
const cost = median(inScope) / median(whole);
const rows = [
  {
    label: `GET /api/overview, p95 (${fmt(sites.length)} magasins)`,
    value: `${fmt(overviewP95, 1)} ms`,
    budget: `≤ ${BUDGETS.overviewP95Ms} ms`,
    ok: overviewP95 <= BUDGETS.overviewP95Ms,
  },
  {
    label: `GET /api/sensor?limit=100 d’un secteur (${fmt(districtSites.length)} magasins) / de la direction, médianes`,
    value: `${fmt(cost, 2)} (${fmt(median(inScope), 1)} ms / ${fmt(median(whole), 1)} ms)`,
    budget: `≤ ${fmt(BUDGETS.scopeCost, 2)}`,
    ok: cost <= BUDGETS.scopeCost,
  },
  {
    label: 'Vue « Réseau » : premier magasin affiché après l’ouverture (médiane de 3)',
    value: `${fmt(median(directorNetwork.rounds))} ms (${fmt(sites.length)} magasins)`,
    budget: `≤ ${fmt(BUDGETS.networkFirstShopMs)} ms`,
    ok: median(directorNetwork.rounds) <= BUDGETS.networkFirstShopMs,
  },
];
console.log('');
for (const row of rows) console.log(`${row.ok ? 'ok   ' : 'ÉCHEC'}  ${row.label} : ${row.value} (budget ${row.budget})`);
console.log(
  `       Vue « Réseau » d’un secteur, pour information : ${fmt(median(districtNetwork.rounds))} ms (${fmt(districtSites.length)} magasins)`,
);
if (sites.length !== SHOPS || districtSites.length !== SHOPS / REGIONS) {
  console.error(`Vue du réseau inattendue : ${sites.length} magasins pour la direction, ${districtSites.length} pour le secteur.`);
  process.exit(1);
}
process.exit(rows.every((row) => row.ok) ? 0 : 1);
