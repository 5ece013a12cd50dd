import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '../../test/sse-client.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind, databaseUrl } from '../../test/test-app.ts';

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} : rien après ${ms} ms`)), ms))]);

async function call(baseUrl: string, token: string, method: string, path: string) {
  return fetch(`${baseUrl}/api${path}`, { method, headers: { authorization: `Bearer ${token}` } });
}

/**
 * What another instance answers, asked again for up to 2 s until it has heard the change:
 * PostgreSQL forwards a notification from each listening connection's own backend, which a
 * saturated machine may schedule some milliseconds late.
 */
const onceHeard = (baseUrl: string, token: string) =>
  expect.poll(async () => (await call(baseUrl, token, 'GET', '/user/me')).status, { timeout: 2000, interval: 10 });

async function login(baseUrl: string, account: TestAccount): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  return ((await response.json()) as { accessToken: string }).accessToken;
}

describe(`sessions that really end (${databaseKind})`, () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ baseUrl } = await t.listen());
  });
  afterAll(() => t.close());

  it('refuses the token at once after « Déconnexion », everywhere, and closes its live stream; other sessions stay open', async () => {
    const account = await t.createAccount();
    const elsewhere = await login(baseUrl, account);
    const stream = await openStream(baseUrl, account.token);
    expect(stream.response.status).toBe(200);

    const out = await call(baseUrl, account.token, 'POST', '/auth/logout');
    expect(out.status).toBe(204);
    expect(out.headers.get('cache-control')).toBe('no-store');

    for (const [method, path] of [
      ['GET', '/user/me'],
      ['GET', '/sensor'],
      ['GET', '/alerts'],
      ['GET', '/stream'],
      ['POST', '/auth/logout'],
    ] as const) {
      const refused = await call(baseUrl, account.token, method, path);
      expect(refused.status, `${method} ${path}`).toBe(401);
      expect(((await refused.json()) as { message: string }).message).toMatch(/connect/i);
    }
    await within(stream.ended, 5000, 'le flux direct de la session terminée reste ouvert');

    // The same person signed in elsewhere is not logged out by it.
    expect((await call(baseUrl, elsewhere, 'GET', '/user/me')).status).toBe(200);
  });

  it('« Se déconnecter de tous les appareils » ends every session of the user, and only theirs', async () => {
    const account = await t.createAccount();
    const colleague = await t.createAccount();
    const phone = await login(baseUrl, account);
    const stream = await openStream(baseUrl, phone);

    expect((await call(baseUrl, account.token, 'POST', '/auth/logout-all')).status).toBe(204);
    expect((await call(baseUrl, account.token, 'GET', '/user/me')).status).toBe(401);
    expect((await call(baseUrl, phone, 'GET', '/user/me')).status).toBe(401);
    await within(stream.ended, 5000, 'le flux direct d’un autre appareil reste ouvert');
    expect((await call(baseUrl, colleague.token, 'GET', '/user/me')).status).toBe(200);
    // Signing in again works.
    expect((await call(baseUrl, await login(baseUrl, account), 'GET', '/user/me')).status).toBe(200);
  });

  it('a new password ends every other session at once; the one that changed it stays open', async () => {
    const account = await t.createAccount();
    const laptop = await login(baseUrl, account);
    const stream = await openStream(baseUrl, laptop);
    const change = (currentPassword: string, newPassword: string) =>
      fetch(`${baseUrl}/api/user/password`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ currentPassword, newPassword }),
      });

    const wrong = await change('pas le bon', 'un tout nouveau mot de passe');
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { message: string }).message).toBe('Le mot de passe actuel est incorrect.');
    const short = await change(account.password, 'court');
    expect(short.status).toBe(400);
    expect(((await short.json()) as { message: string }).message).toContain('au moins 8 caractères');
    // Nothing changed: the other session is open and the old password still works.
    expect((await call(baseUrl, laptop, 'GET', '/user/me')).status).toBe(200);

    const changed = await change(account.password, 'un tout nouveau mot de passe');
    expect(changed.status).toBe(204);
    expect((await call(baseUrl, laptop, 'GET', '/user/me')).status).toBe(401);
    await within(stream.ended, 5000, 'le flux direct d’une autre session reste ouvert');
    expect((await call(baseUrl, account.token, 'GET', '/user/me')).status).toBe(200);

    const old = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    expect(old.status).toBe(401);
    const fresh = await login(baseUrl, { ...account, password: 'un tout nouveau mot de passe' });
    expect((await call(baseUrl, fresh, 'GET', '/user/me')).status).toBe(200);
  });
});

describe.runIf(databaseUrl)('sessions across two instances on PostgreSQL', () => {
  let first: TestApp;
  let second: TestApp;
  let firstUrl: string;
  let secondUrl: string;

  beforeAll(async () => {
    first = await createTestApp({ applicationName: 'vigie-sessions-a' });
    second = await createTestApp({ applicationName: 'vigie-sessions-b' });
    ({ baseUrl: firstUrl } = await first.listen());
    ({ baseUrl: secondUrl } = await second.listen());
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('a logout on one instance refuses the token on the other as soon as it hears the bus, and closes the stream it holds', async () => {
    const account = await first.createAccount();
    expect((await call(secondUrl, account.token, 'GET', '/user/me')).status).toBe(200);
    const stream = await openStream(secondUrl, account.token);
    expect(stream.response.status).toBe(200);

    expect((await call(firstUrl, account.token, 'POST', '/auth/logout')).status).toBe(204);
    await onceHeard(secondUrl, account.token).toBe(401);
    await within(stream.ended, 5000, 'le flux direct de l’autre instance reste ouvert');
  });

  it('a new password set on one instance refuses the other sessions on the other as soon as it hears the bus', async () => {
    const account = await first.createAccount();
    const phone = await login(secondUrl, account);
    const stream = await openStream(secondUrl, phone);
    expect(stream.response.status).toBe(200);

    const changed = await fetch(`${firstUrl}/api/user/password`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ currentPassword: account.password, newPassword: 'un autre mot de passe encore' }),
    });
    expect(changed.status).toBe(204);
    await onceHeard(secondUrl, phone).toBe(401);
    await within(stream.ended, 5000, 'le flux direct de l’autre instance reste ouvert');
    expect((await call(secondUrl, account.token, 'GET', '/user/me')).status).toBe(200);
  });
});
