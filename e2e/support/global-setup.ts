import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACCOUNT_KEYS, ACCOUNTS_ENV, BASE_URL_ENV, FACTORY_ENV, SHOWCASE_DEVICES, type Account, type FactoryDevice } from './accounts';
import { seedGallery } from './gallery';
import { memoryTemplate } from '../../apps/server/src/test/pglite-template';
import { MAIL_DIR_ENV, startMailCatcher } from './mail';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverEntry = path.join(root, 'apps/server/dist/main.js');
const createAccounts = path.join(root, 'e2e/support/create-accounts.ts');
const devicesImport = path.join(root, 'scripts/devices-import.mjs');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(baseUrl: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode} during start-up.`);
    try {
      const response = await fetch(`${baseUrl}/api/ready`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer ${baseUrl}/api/ready within ${timeoutMs} ms.`);
}

async function apiLogin(baseUrl: string, account: Account): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (!response.ok) throw new Error(`Login of ${account.email} failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

async function createDevices(baseUrl: string, token: string, kind: 'emitter' | 'sensor', names: string[]): Promise<void> {
  for (const name of names) {
    const response = await fetch(`${baseUrl}/api/${kind}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name }),
    });
    if (response.status !== 201) throw new Error(`Creating ${kind} "${name}" failed: ${response.status} ${await response.text()}`);
  }
}

/**
 * Starts the real server on the production build, as an operator would, with accounts made by
 * the accounts' script beforehand (the embedded database is locked while the server runs).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npm run build" first.`);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigie-e2e-'));
  const port = await freePort();
  const mqttPort = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // A real SMTP server: invitations and alert e-mails leave the e2e server as they would in production.
  const mailDir = path.join(dataDir, 'mail');
  const smtp = await startMailCatcher(mailDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    MQTT_PORT: String(mqttPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // The embedded database starts from the API suite's migrated template when it has been written.
    ...(memoryTemplate() ? { PGLITE_TEMPLATE: memoryTemplate() } : {}),
    SEED_DEMO: 'true',
    // The background analysis runs every 5 s instead of every minute: « À surveiller » fills quickly.
    INSIGHTS_INTERVAL_SECONDS: '5',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Vigie <equipe@vigie.test>',
    // The links in e-mails lead back to this server.
    PUBLIC_URL: baseUrl,
    // The identity provider of sso.spec.ts runs on loopback, as the API suite's does.
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };

  // Unique per run: the PostgreSQL database may be shared with other runs.
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const accounts: Account[] = ACCOUNT_KEYS.map((key) => ({
    key,
    email: `e2e-${runId}-${key}@vigie.test`,
    password: `Mdp-${randomBytes(9).toString('base64url')}`,
    name: key === 'noname' ? null : key === 'showcase' ? 'Camille Martin' : `Test ${key} ${runId}`,
    org: `E2E ${runId} ${key}`,
  }));
  // All accounts in one process (one start-up, one opening of the database), through the service
  // the account command calls; that command itself is covered by the server's tests.
  const created = spawnSync(process.execPath, ['--import', 'tsx', createAccounts], {
    cwd: root,
    env,
    input: JSON.stringify(accounts),
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`Creating the accounts failed (exit ${created.status}): ${created.stderr || created.stdout}`);

  // A maker's batch of labelled devices, imported by the operator's script like the accounts.
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const factory: FactoryDevice[] = ['A', 'B', 'C'].map((suffix) => ({
    serial: `E2E-${runId}-${suffix}`.toUpperCase(),
    kind: 'sensor',
    model: 'Vigie Froid T1',
    claimCode: Array.from(randomBytes(12), (byte) => alphabet[byte % alphabet.length]).join(''),
  }));
  const batchFile = path.join(dataDir, 'lot.csv');
  writeFileSync(
    batchFile,
    ['serial;kind;model;claimCode', ...factory.map((device) => `${device.serial};${device.kind};${device.model};${device.claimCode}`)].join(
      '\n',
    ),
  );
  const imported = spawnSync(process.execPath, [devicesImport, batchFile], { cwd: root, env, encoding: 'utf8' });
  if (imported.status !== 0) throw new Error(`devices-import failed (exit ${imported.status}): ${imported.stderr || imported.stdout}`);

  const server = spawn(process.execPath, [serverEntry], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  try {
    await waitUntilReady(baseUrl, server, 90_000);
    const showcase = accounts.find((account) => account.key === 'showcase');
    if (showcase) {
      const token = await apiLogin(baseUrl, showcase);
      await createDevices(baseUrl, token, 'emitter', SHOWCASE_DEVICES.emitters);
      await createDevices(baseUrl, token, 'sensor', SHOWCASE_DEVICES.sensors);
    }
    const gallery = accounts.find((account) => account.key === 'gallery');
    if (gallery) await seedGallery(baseUrl, await apiLogin(baseUrl, gallery));
  } catch (error) {
    server.kill('SIGKILL');
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  process.env[BASE_URL_ENV] = baseUrl;
  process.env[ACCOUNTS_ENV] = JSON.stringify(accounts);
  process.env[FACTORY_ENV] = JSON.stringify(factory);
  process.env[MAIL_DIR_ENV] = mailDir;

  return async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
