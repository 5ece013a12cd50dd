import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFactoryBatch } from '../modules/devices/claiming-service.ts';
import { setRole } from '../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../test/test-app.ts';

/** An SMS provider's API on this machine (Twilio's form): it records each message it is asked to send. */
async function startSmsProvider() {
  const texts: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url?.endsWith('/Messages.json')) {
        texts.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('Body') ?? '');
      }
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${randomUUID().replaceAll('-', '')}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, texts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface Answer {
  status: number;
  message: string;
}

/**
 * Every limited route, raced: N requests sent at once over real HTTP, as a script would. Each limit
 * is one atomic step (counted and compared in one statement), so at most the limit gets through,
 * whatever the interleaving (docs/api.md, Limites).
 */
describe(`limits raced by parallel requests on ${databaseKind}`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let base: string;
  let sms: Awaited<ReturnType<typeof startSmsProvider>>;
  let viewer: TestAccount;
  let manager: TestAccount;

  beforeAll(async () => {
    sms = await startSmsProvider();
    t = await createTestApp({
      env: {
        PUBLIC_URL: 'https://vigie.example.fr',
        PHONE_PROVIDER: 'twilio',
        PHONE_FROM: '+33700000001',
        TWILIO_ACCOUNT_SID: 'AC0123456789',
        TWILIO_AUTH_TOKEN: 'jeton-twilio',
        TWILIO_API_URL: sms.url,
      },
    });
    base = (await t.listen()).baseUrl;
    const organization = `Limites ${randomUUID()}`;
    await t.createAccount({ organization, name: 'Admin' });
    viewer = await t.createAccount({ organization, name: 'Vendeur' });
    manager = await t.createAccount({ organization, name: 'Responsable' });
    await setRole(t, viewer.id, 'viewer');
    await setRole(t, manager.id, 'manager');
  });
  afterAll(async () => {
    await t.close();
    await sms.close();
  });

  async function race(count: number, send: (i: number) => Promise<Response>): Promise<Answer[]> {
    return Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const response = await send(i);
        const text = await response.text();
        let message = text;
        try {
          message = (JSON.parse(text) as { message?: string }).message ?? text;
        } catch {
          // not JSON: the text itself
        }
        return { status: response.status, message };
      }),
    );
  }
  const json = (who: TestAccount | null, method: string, url: string, body: object) =>
    fetch(`${base}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(who ? who.auth : {}) },
      body: JSON.stringify(body),
    });
  const statuses = (answers: Answer[]) => answers.map((answer) => answer.status).sort();

  it('sends exactly five codes an hour to a number, however many requests arrive at once', async () => {
    const answers = await race(12, () => json(viewer, 'PUT', '/api/user/phone', { phone: '+33 7 81 22 33 44' }));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(7);
    expect(refused[0]?.message).toMatch(/Trop de codes demandés/);
    expect(sms.texts).toHaveLength(5);
  });

  it('checks at most five codes, however many wrong codes arrive at once, and then refuses the right one too', async () => {
    const set = await json(manager, 'PUT', '/api/user/phone', { phone: '+33 6 11 22 33 44' });
    expect(set.status).toBe(200);
    const code = /(\d{6})/.exec(sms.texts.at(-1) ?? '')?.[1] ?? '';
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await race(60, () => json(manager, 'POST', '/api/user/phone/verify', { code: wrong }));
    expect(statuses(answers).every((status) => status === 400)).toBe(true);
    const checked = answers.filter((answer) => /Code incorrect/.test(answer.message));
    expect(checked.length).toBe(5);
    expect(answers.filter((answer) => /Trop d’essais/.test(answer.message))).toHaveLength(55);
    const right = await json(manager, 'POST', '/api/user/phone/verify', { code });
    expect(right.status).toBe(400);
    expect(((await right.json()) as { message: string }).message).toMatch(/Trop d’essais/);
  });

  it('checks at most ten wrong label codes of an account, however many claims arrive at once', async () => {
    const serial = `VIG-${randomUUID().slice(0, 8)}`.toUpperCase();
    const claimCode = Array.from(randomBytes(12), (byte) => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[byte % 32]).join('');
    await importFactoryBatch(t.database.db, [{ serial, kind: 'sensor', model: 'Vigie Froid T1', claimCode }]);
    const answers = await race(30, (i) =>
      json(manager, 'POST', i % 2 === 0 ? '/api/devices/claim' : '/api/devices/claim/check', { serial, claimCode: 'ZZZZZZZZZZZZ' }),
    );
    expect(answers.filter((answer) => answer.status === 404).length).toBeLessThanOrEqual(10);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(20);
    expect(answers.every((answer) => answer.status === 404 || answer.status === 429)).toBe(true);
    // Blocked now: even the right code is refused, so that a guess beyond the limit tells nothing.
    expect((await json(manager, 'POST', '/api/devices/claim/check', { serial, claimCode })).status).toBe(429);
  });

  it('checks at most twenty wrong installation keys of an address, however many arrive at once', async () => {
    const answers = await race(50, (i) =>
      json(null, 'POST', '/api/devices/provision', { serial: `SN-RACE-${i}`, kind: 'sensor', installationKey: `faux-${randomUUID()}` }),
    );
    expect(answers.filter((answer) => answer.status === 401).length).toBeLessThanOrEqual(20);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(30);
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
  });
});
