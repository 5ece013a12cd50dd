import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, databaseKind } from '../test/test-app.ts';

describe(`health and readiness on ${databaseKind}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /api/health answers 200 {"status":"ok"}', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /api/ready answers 200 while the database answers', async () => {
    const response = await t.app.inject({ url: '/api/ready' });
    expect(response.statusCode).toBe(200);
  });

  it('answers 404 with a French JSON message for an unknown API route, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: '/api/nope' });
      expect(response.statusCode).toBe(404);
      expect(response.json<{ message: string }>().message).toMatch(/n'existe pas/);
    }
  });

  it('sends strict security headers and no x-powered-by', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});

describe(`readiness when the database is gone (${databaseKind})`, () => {
  it('GET /api/ready answers 503 with a message, /api/health stays 200', async () => {
    const t = await createTestApp();
    await t.database.close();
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json<{ message: string }>().message).toMatch(/indisponible/);
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    await t.app.close();
  });
});
