/**
 * `npm run attack` — Vigie's own attack suite, against the real server process on both databases
 * (PGlite in a temporary DATA_DIR, then a fresh PostgreSQL database dropped at the end), loopback
 * only, on free ports. Families, in order: role × route matrix, cross-organization probes, the
 * scope × role × route matrix of the catalogue,
 * JSON fuzz of every route, hostile names through every renderer, an alert storm, SIGKILL while
 * publishing, MQTT abuse, login limiters behind a proxy, every limited route raced, ingestion (LoRaWAN frames, absurd values). Prints a table (family, tries,
 * failures, figures) and exits 1 on any failure or missed budget.
 *
 * `npm run attack -- --short` (or ATTACK_PROFILE=short): the profile CI runs, ≤ 3 min.
 * `--only roles,fuzz` runs some families; `--db pglite|postgres` one database.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { memoryTemplate } from '../../apps/server/src/test/pglite-template.ts';
import { startSmtpCatcher } from '../../apps/server/src/test/smtp-catcher.ts';
import { root } from '../support.ts';
import { codecFairness } from './codec-fairness.ts';
import { fuzzRoutes } from './fuzz.ts';
import { hostileNames } from './hostile.ts';
import { ingestion } from './ingest.ts';
import { LIMITS, limitedRouteRaces, limiterRaces, smsEnv, startSmsCatcher } from './limiter.ts';
import { mqttAbuse } from './mqtt-abuse.ts';
import { sigkillWhilePublishing } from './sigkill.ts';
import { alertStorm } from './storm.ts';
import { crossOrganization, roleMatrix } from './roles.ts';
import { scopeMatrix } from './scopes.ts';
import { type FamilyResult, log, type Tally, vigie, type Vigie } from './support.ts';
import { buildWorld, createAdmins, type World } from './world.ts';

const { values: args } = parseArgs({
  options: { short: { type: 'boolean', default: false }, only: { type: 'string' }, db: { type: 'string' } },
});
export const SHORT = args.short || process.env['ATTACK_PROFILE'] === 'short';
const only = args.only?.split(',');
const wanted = (name: string) => !only || only.includes(name);

const started = Date.now();
const results: FamilyResult[] = [];
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-attack-'));

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, commandArgs, { cwd: root, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} : ${result.stderr || result.stdout}`);
}

async function family(name: string, database: string, body: () => Promise<Tally>): Promise<void> {
  if (!wanted(name.split(/[ ']/)[0] ?? name)) return;
  log(`${database} — ${name}`);
  const t0 = Date.now();
  let tally: Tally;
  try {
    tally = await body();
  } catch (error) {
    const { Tally: TallyClass } = await import('./support.ts');
    tally = new TallyClass();
    tally.tries += 1;
    tally.failures.push(`arrêt de la famille : ${(error as Error).stack ?? String(error)}`);
  }
  const result = { family: name, database, tries: tally.tries, failures: tally.failures, figures: tally.figures, ms: Date.now() - t0 };
  results.push(result);
  // The latency budgets depend on what else the machine runs: its load is printed beside them.
  const load = os.loadavg()[0]?.toFixed(1).replace('.', ',');
  log(
    `${database} — ${name} : ${tally.tries} essais, ${tally.failures.length} échecs (${Math.round(result.ms / 1000)} s ; charge de la machine ${load})`,
  );
  for (const failure of tally.failures.slice(0, 8)) console.log(`    ÉCHEC ${failure}`);
  if (tally.failures.length > 8) console.log(`    … et ${tally.failures.length - 8} autres`);
}

export interface Context {
  world: World;
  runDir: string;
  dbDir: string;
  /** The environment of a second server on the same data (the limiter family's TRUST_PROXY one). */
  restartWith(env: NodeJS.ProcessEnv): Promise<Vigie>;
}

async function onDatabase(database: string, dbEnv: NodeJS.ProcessEnv): Promise<void> {
  const dbDir = fs.mkdtempSync(path.join(runDir, `${database.toLowerCase()}-`));
  const smtp = await startSmtpCatcher();
  const sms = await startSmsCatcher();
  const env: NodeJS.ProcessEnv = {
    DATA_DIR: dbDir,
    // The embedded database starts from the API suite's migrated template when it has been written.
    ...(memoryTemplate() ? { PGLITE_TEMPLATE: memoryTemplate() } : {}),
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'http://127.0.0.1',
    JWT_SECRET: 'un-secret-de-signature-pour-la-suite-d-attaque',
    // Behind one proxy, with the login limits as shipped: the harness's own calls come from
    // 127.0.0.1 (no X-Forwarded-For), the limiter family's from the addresses it forwards.
    TRUST_PROXY: '1',
    LOGIN_MAX_FAILURES_PER_IP: String(LIMITS.perIp),
    LOGIN_MAX_FAILURES_PER_EMAIL: String(LIMITS.perEmail),
    ...smsEnv(sms.url),
    ...dbEnv,
  };
  let server: Vigie | undefined;
  try {
    server = await vigie(env, path.join(dbDir, 'vigie.log'));
    // On the embedded database the running server makes the accounts (its admin socket): no second opening.
    await server.start();
    createAdmins(server.env);
    log(`${database} — serveur prêt ; comptes et objets de départ`);
    const world = await buildWorld(database, server, smtp);
    await family('roles × routes', database, () => roleMatrix(world));
    await family('roles inter-organisations', database, () => crossOrganization(world));
    await family('portées × rôles × routes', database, () => scopeMatrix(world));
    await family('fuzz JSON', database, () => fuzzRoutes(world, SHORT));
    await family('noms hostiles', database, () => hostileNames(world));
    await family(`tempête d'alertes`, database, () =>
      alertStorm(world, SHORT ? 200 : 1000, SHORT ? 5_000 : 30_000, SHORT ? 5_000 : 10_000),
    );
    await family('MQTT abusif', database, () => mqttAbuse(world));
    await family('SIGKILL pendant la publication', database, () =>
      sigkillWhilePublishing(world, SHORT ? 4 : 10, SHORT ? 1 : 2, SHORT ? 4000 : 8000),
    );
    await family('limites derrière un proxy', database, () => limiterRaces(world));
    await family('courses aux limites', database, () => limitedRouteRaces(world, sms, SHORT));
    await family('ingestion (LoRaWAN, valeurs absurdes)', database, () => ingestion(world));
    await family('décodeurs équitables entre organisations', database, () => codecFairness(world, SHORT));
  } finally {
    await server?.stop();
    await smtp.close();
    await sms.close();
  }
}

async function main(): Promise<void> {
  log(`Suite d'attaque, profil ${SHORT ? 'court' : 'complet'} ; compilation du serveur`);
  run('npm', ['run', 'build', '-w', '@vigie/server']);
  if (!args.db || args.db === 'pglite') await onDatabase('PGlite', { DATABASE_URL: '' });
  if (!args.db || args.db === 'postgres') {
    const adminUrl = process.env['PG_ADMIN_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `vigie_attack_${Date.now()}_${process.pid}`;
    const pgEnv = { ...process.env, PG_ADMIN_URL: adminUrl };
    run('node', ['scripts/pg-database.mjs', 'create', name], pgEnv);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      await onDatabase('PostgreSQL', { DATABASE_URL: url.toString() });
    } finally {
      run('node', ['scripts/pg-database.mjs', 'drop', name], pgEnv);
    }
  }
}

let crashed: unknown;
try {
  await main();
} catch (error) {
  crashed = error;
}

const seconds = Math.round((Date.now() - started) / 1000);
console.log(
  `\nSuite d'attaque — profil ${SHORT ? 'court' : 'complet'}, ${seconds} s, ${os.cpus().length} cœurs, charge moyenne ${os
    .loadavg()
    .map((n) => n.toFixed(1).replace('.', ','))
    .join(' · ')} (1, 5, 15 min)\n`,
);
const width = Math.max(8, ...results.map((r) => r.family.length));
console.log(`${'famille'.padEnd(width)} | base       | essais | échecs | durée`);
console.log(`${'-'.repeat(width)}-|------------|--------|--------|------`);
for (const r of results) {
  console.log(
    `${r.family.padEnd(width)} | ${r.database.padEnd(10)} | ${String(r.tries).padStart(6)} | ${String(r.failures.length).padStart(6)} | ${String(Math.round(r.ms / 1000)).padStart(4)} s`,
  );
}
const figures = results.flatMap((r) => r.figures.map((f) => ({ ...f, where: `${r.database}, ${r.family}` })));
if (figures.length > 0) {
  console.log('\nBudgets');
  for (const f of figures) console.log(`  ${f.ok ? 'ok   ' : 'RATÉ '} ${f.where} — ${f.label} : ${f.value}`);
}
const failed = results.reduce((sum, r) => sum + r.failures.length, 0);
if (crashed) console.error(`\nLa suite s'est arrêtée : ${(crashed as Error).stack ?? String(crashed)}`);
if (crashed || failed > 0) {
  console.log(`\n${failed} échec(s). Journaux du serveur : ${runDir}`);
  process.exit(1);
}
fs.rmSync(runDir, { recursive: true, force: true });
console.log('\nAucun échec.');
process.exit(0);
