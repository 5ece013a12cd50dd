/**
 * npm run bench:chain — a chain of 500 shops × 20 sensors in 25 regions, on PostgreSQL, through
 * the real server: `GET /api/overview` for the quality director (every shop), and what the scope
 * costs on `GET /api/sensor` — a district manager's list (one region) against the same request
 * of the director, both measured in this run. Prints each figure beside its budget and exits
 * non-zero when one is missed. Needs a PostgreSQL server (`PG_ADMIN_URL`, the local one by default).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { BENCH_ACCOUNT, benchLogin, ensureBuilt, fmt, json, root, startServer } from './support';

const SHOPS = 500;
const SENSORS_PER_SHOP = 20;
const REGIONS = 25;
const CONCURRENCY = 16;
const SAMPLES = 60;
const BUDGETS = { overviewP95Ms: 200, scopeCost: 1.1 };

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const median = (values: number[]) => percentile(values, 50);

ensureBuilt('server');
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
const director = { authorization: `Bearer ${await benchLogin(server)}` };
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
const { sites } = await json<{ sites: unknown[] }>(`${server.base}/api/overview`, { headers: director });
const districtSites = (await json<{ sites: unknown[] }>(`${server.base}/api/overview`, { headers: scoped })).sites;

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
];
console.log('');
for (const row of rows) console.log(`${row.ok ? 'ok   ' : 'ÉCHEC'}  ${row.label} : ${row.value} (budget ${row.budget})`);
if (sites.length !== SHOPS || districtSites.length !== SHOPS / REGIONS) {
  console.error(`Vue du réseau inattendue : ${sites.length} magasins pour la direction, ${districtSites.length} pour le secteur.`);
  process.exit(1);
}
process.exit(rows.every((row) => row.ok) ? 0 : 1);
