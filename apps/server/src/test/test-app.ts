import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import type { TokenService } from '../modules/auth/token-service.ts';
import { startServer } from '../server.ts';
import { memoryTemplate } from './pglite-template.ts';

export { memoryTemplate };

export const TEST_JWT_SECRET = 'test-secret-with-at-least-thirty-two-characters';

/** Which database the suite runs on: PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise. */
export const databaseUrl = process.env['DATABASE_URL'] || undefined;
export const databaseKind = databaseUrl ? 'PostgreSQL' : 'PGlite';

export function tempDir(prefix = 'vigie-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: tempDir(),
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    WEB_DIST: path.join(os.tmpdir(), 'vigie-no-web-app'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
}

export interface TestAccount {
  id: string;
  email: string;
  password: string;
  organizationId: string;
  token: string;
  auth: { authorization: string };
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  /** A new account in a new organization (or the named one), already logged in through the API. */
  createAccount(options?: { organization?: string; name?: string }): Promise<TestAccount>;
  /** Listens on free ports (HTTP and MQTT) like the real server; call it before any inject(). */
  listen(): Promise<{ baseUrl: string; mqttUrl: string }>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    tokens?: TokenService;
    applicationName?: string;
    /** The clock of time-based rules (the trash), moved by tests instead of sleeping. */
    now?: () => Date;
    /** The clock of sessions and their tokens, moved by tests of idle and absolute lifetimes. */
    sessionClock?: () => Date;
    /** The clock of the live stream's replay window, held by tests of what a new stream replays. */
    replayClock?: () => number;
    /**
     * Apps given the same scope count rate limits together on PostgreSQL, like instances behind
     * one load balancer; by default each test app counts apart, as the suites share a database.
     */
    rateLimitScope?: string;
    /** An embedded database kept in this folder across apps (a restart); in memory by default. */
    dataDir?: string;
  } = {},
): Promise<TestApp> {
  const config = testConfig({ ...options.env, ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}) });
  const logger = pino({ level: 'silent' });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    retentionDays: config.retentionDays,
    inMemory: !config.databaseUrl && !options.dataDir,
    memoryTemplate: memoryTemplate(),
    logger,
    ...(options.applicationName ? { applicationName: options.applicationName } : {}),
  });
  const app = await buildApp({
    config,
    database,
    jwtSecret: TEST_JWT_SECRET,
    logger,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.sessionClock ? { sessionClock: options.sessionClock } : {}),
    ...(options.replayClock ? { replayClock: options.replayClock } : {}),
    rateLimitScope: options.rateLimitScope ?? `${randomUUID()}:`,
  });

  return {
    app,
    database,
    config,
    async createAccount({ organization, name } = {}) {
      const email = `user-${randomUUID()}@example.fr`;
      const password = `mot de passe ${randomUUID()}`;
      const user = await app.services.users.createAccount({
        email,
        password,
        name: name ?? 'Alex Test',
        organizationName: organization ?? `Org ${randomUUID()}`,
      });
      const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      const token = response.json<{ accessToken: string }>().accessToken;
      return { id: user.id, email, password, organizationId: user.organization.id, token, auth: { authorization: `Bearer ${token}` } };
    },
    async listen() {
      const { address, mqtt } = await startServer(
        app,
        { ...config, port: 0, host: '127.0.0.1', mqttPort: 0, mqttHost: '127.0.0.1', mqttPortExplicit: true },
        logger,
      );
      return { baseUrl: address, mqttUrl: `mqtt://127.0.0.1:${mqtt?.port ?? 0}` };
    },
    async close() {
      await app.close();
      await database.close();
      if (!options.dataDir) fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** The parsed JSON body of a response, typed by the caller. */
export function body<T>(response: LightMyRequestResponse): T {
  return response.json<T>();
}

/**
 * On PostgreSQL, a database of its own for a suite whose background work (outbox deliveries)
 * would otherwise pick up other suites' rows on the shared test database. Undefined on PGlite,
 * where every test app already has its own database.
 */
export async function isolatedDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (!databaseUrl) return undefined;
  const { default: pg } = await import('pg');
  const base = new URL(databaseUrl);
  const name = `${base.pathname.slice(1)}_${randomUUID().slice(0, 8)}`.replace(/[^a-z0-9_]/g, '_').slice(0, 63);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}
