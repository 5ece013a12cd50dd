import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, tempDir } from '../test/test-app.ts';

describe('hosting of the built web app', () => {
  let t: TestApp;
  const webDist = tempDir('vigie-web-');

  beforeAll(async () => {
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html lang="fr"><title>Vigie</title><div id="root"></div></html>');
    fs.writeFileSync(path.join(webDist, 'assets', 'index-4f2a9c.js'), 'console.log("vigie")');
    fs.writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it.each(['/', '/dashboard', '/login', '/error/503', '/une/route/inconnue'])(
    'answers %s with the app shell, revalidated, under a strict CSP',
    async (url) => {
      const response = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-powered-by']).toBeUndefined();
    },
  );

  it('caches hashed assets for a year', async () => {
    const response = await t.app.inject({ url: '/assets/index-4f2a9c.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for a missing file rather than the app shell', async () => {
    const response = await t.app.inject({ url: '/assets/absent-123.js' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<div id="root">');
  });

  it('keeps unknown API routes as JSON 404, never the app shell', async () => {
    const response = await t.app.inject({ url: '/api/inconnue', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.json<{ message: string }>().message).toMatch(/n'existe pas/);
  });
});
