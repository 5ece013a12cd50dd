import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestAccount, type TestApp } from '../test/test-app.ts';
import { registerWebApp } from './web-app.ts';

describe('the web app’s precompressed files', () => {
  const dist = tempDir('vigie-dist-');
  const script = `export const landing = ${JSON.stringify('Supervisez vos capteurs. '.repeat(400))};\n`;
  const app = Fastify();
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html lang="fr"><body>${'<p>Vigie</p>'.repeat(200)}</body></html>`);
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), script);
    // As the build leaves them: a Brotli and a gzip copy beside each file.
    for (const file of ['index.html', 'assets/index-AbC123.js']) {
      const content = fs.readFileSync(path.join(dist, file));
      fs.writeFileSync(path.join(dist, `${file}.br`), zlib.brotliCompressSync(content));
      fs.writeFileSync(path.join(dist, `${file}.gz`), zlib.gzipSync(content));
    }
    await registerWebApp(app, dist);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends the Brotli copy to a browser that accepts it, gzip to one that accepts only gzip, the file otherwise', async () => {
    const br = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);

    const gz = await get('/assets/index-AbC123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends the app’s page compressed too, on any of its routes, and still revalidated', async () => {
    for (const url of ['/', '/dashboard/capteurs']) {
      const page = await get(url, 'br');
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toContain('<html lang="fr">');
    }
  });
});

describe('API answers compressed', () => {
  let t: TestApp;
  let owner: TestAccount;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ baseUrl } = await t.listen());
    owner = await t.createAccount();
    for (let n = 0; n < 30; n += 1) {
      await t.app.inject({ method: 'POST', url: '/api/sensor', headers: owner.auth, payload: { name: `Vitrine ${n}` } });
    }
  });
  afterAll(() => t.close());

  it('compresses a list for a client that accepts it, and not for one that does not', async () => {
    const br = await t.app.inject({ url: '/api/sensor', headers: { ...owner.auth, 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    const list = JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString()) as { sensors: unknown[] };
    expect(list.sensors).toHaveLength(30);

    const plain = await t.app.inject({ url: '/api/sensor', headers: owner.auth });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json<{ sensors: unknown[] }>().sensors).toHaveLength(30);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('never compresses the live stream, whose events must leave at once', async () => {
    const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      const request = http.get(
        `${baseUrl}/api/stream`,
        { headers: { authorization: owner.auth.authorization, 'accept-encoding': 'br, gzip' } },
        (response) => {
          resolve(response.headers);
          request.destroy();
        },
      );
      request.on('error', reject);
    });
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers['content-encoding']).toBeUndefined();
  });
});

describe('conditional GET on lists', () => {
  let t: TestApp;
  let owner: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
    await t.app.inject({ method: 'POST', url: '/api/sensor', headers: owner.auth, payload: { name: 'Vitrine' } });
  });
  afterAll(() => t.close());

  it('answers 304 without a body while the list is unchanged, and the new list once it changes', async () => {
    const first = await t.app.inject({ url: '/api/sensor', headers: owner.auth });
    const etag = first.headers['etag'];
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const same = await t.app.inject({ url: '/api/sensor', headers: { ...owner.auth, 'if-none-match': String(etag) } });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');

    await t.app.inject({ method: 'POST', url: '/api/sensor', headers: owner.auth, payload: { name: 'Chambre froide' } });
    const changed = await t.app.inject({ url: '/api/sensor', headers: { ...owner.auth, 'if-none-match': String(etag) } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<{ sensors: unknown[] }>().sensors).toHaveLength(2);
    expect(changed.headers['etag']).not.toBe(etag);
  });

  it('keeps credentials out of every cache', async () => {
    const key = await t.app.inject({ url: '/api/organization/installation-key', headers: owner.auth });
    expect(key.headers['cache-control']).toBe('no-store');
  });
});
