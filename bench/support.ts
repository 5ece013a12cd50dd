/** What the benchmarks share: a free port, the production build, and the real server started on it. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Builds what is missing: the server alone, or the web app too. */
export function ensureBuilt(what: 'server' | 'all'): void {
  const server = fs.existsSync(path.join(root, 'apps/server/dist/main.js'));
  const web = fs.existsSync(path.join(root, 'apps/web/dist/index.html'));
  if (server && (what === 'server' || web)) return;
  const args = what === 'server' ? ['run', 'build', '-w', '@vigie/server'] : ['run', 'build'];
  const built = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('Compilation impossible');
}

export interface BenchServer {
  child: ChildProcess;
  base: string;
  mqttUrl: string;
}

/** The account the benchmarks sign in with, made by the operator's script before the server starts. */
export const BENCH_ACCOUNT = { email: 'bench@example.fr', password: 'bench-password', org: 'Bench' };

/**
 * Starts `apps/server/dist/main.js` on free ports with `env` (the embedded database unless
 * `DATABASE_URL` is given), after `user:create` made {@link BENCH_ACCOUNT} unless `account` is false.
 */
export async function startServer(env: Record<string, string>, { account = true } = {}): Promise<BenchServer> {
  const port = await freePort();
  const mqttPort = await freePort();
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort),
    ...env,
  };
  if (account) {
    const { email, password, org } = BENCH_ACCOUNT;
    const created = spawnSync(
      process.execPath,
      ['apps/server/dist/user-create.js', '--email', email, '--password', password, '--org', org],
      { cwd: root, env: fullEnv, encoding: 'utf8' },
    );
    // A second server on the same database finds the account already there.
    if (created.status !== 0 && !created.stderr.includes('existe déjà')) {
      throw new Error(`Création du compte de mesure impossible : ${created.stderr}`);
    }
  }
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], { cwd: root, env: fullEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    const up = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { child, base, mqttUrl: `mqtt://127.0.0.1:${mqttPort}` };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error('Le serveur ne démarre pas');
}

export async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Signs {@link BENCH_ACCOUNT} in; answers its access token. */
export async function benchLogin(server: BenchServer): Promise<string> {
  const { email, password } = BENCH_ACCOUNT;
  const { accessToken } = await json<{ accessToken: string }>(`${server.base}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email, password }),
  });
  return accessToken;
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('fr-FR', { maximumFractionDigits: digits });
