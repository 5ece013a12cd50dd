import fs from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openDatabase } from '../db/database.ts';
import { memoryTemplate, TEST_JWT_SECRET, testConfig } from '../test/test-app.ts';

/** A logger at `level` whose lines the test reads. */
function capture(level: 'info' | 'debug') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

describe('request log', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  async function appWith(level: 'info' | 'debug') {
    const { logger, lines } = capture(level);
    const config = testConfig();
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      retentionDays: config.retentionDays,
      inMemory: !config.databaseUrl,
      memoryTemplate: memoryTemplate(),
      logger,
    });
    const app = await buildApp({ config, database, jwtSecret: TEST_JWT_SECRET, logger });
    closing.push(async () => {
      await app.close();
      await database.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    });
    return { app, lines };
  }

  it('says nothing of each request at info, so errors and jobs stand out', async () => {
    const { app, lines } = await appWith('info');
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect(lines.join('')).not.toMatch(/Requête traitée|request completed|incoming request/);
  });

  it('logs each request at debug, with its method, address, status and duration', async () => {
    const { app, lines } = await appWith('debug');
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    const line = lines.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry['msg'] === 'Requête traitée');
    expect(line).toMatchObject({ method: 'GET', url: '/api/health', status: 200 });
    expect(typeof line?.['ms']).toBe('number');
  });
});
