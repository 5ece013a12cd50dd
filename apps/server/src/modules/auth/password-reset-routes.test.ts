import { PASSWORD_RESET_REQUESTED } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRENCH, mailingTestApp } from '../../test/mailing-test-app.ts';
import { recipientOf } from '../../test/smtp-catcher.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const PUBLIC_URL = 'https://vigie.example.fr';
const UNUSABLE = 'Ce lien n’est plus valable\u202F: demandez-en un nouveau.';
const EXPIRED = 'Ce lien a expiré\u202F: demandez-en un nouveau.';
const NEW_PASSWORD = 'un tout nouveau mot de passe';

describe(`password reset through a real SMTP server (${databaseKind})`, () => {
  const mailing = mailingTestApp({
    publicUrl: PUBLIC_URL,
    mailFrom: 'Vigie <comptes@vigie.test>',
    start: new Date('2026-03-02T09:00:00Z'),
  });
  const { linkFor: linkTo } = mailing;
  const linkFor = (email: string, count = 1) => linkTo(email, 'reinitialiser-mot-de-passe', count);

  const ask = (email: unknown, ip = '203.0.113.1') =>
    mailing.t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email } as object, remoteAddress: ip });
  const confirm = (token: string, password = NEW_PASSWORD) =>
    mailing.t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password } });
  const login = (email: string, password: string) =>
    mailing.t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const me = (account: TestAccount) => mailing.t.app.inject({ method: 'GET', url: '/api/user/me', headers: account.auth });

  it('e-mails a link that sets a new password once and ends every session', async () => {
    const account = await mailing.t.createAccount();
    expect((await me(account)).statusCode).toBe(200);

    const asked = await ask(account.email.toUpperCase());
    expect(asked.statusCode).toBe(202);
    expect(asked.headers['cache-control']).toBe('no-store');
    expect(asked.json()).toEqual({ message: PASSWORD_RESET_REQUESTED });

    const { mail, token } = await linkFor(account.email);
    expect(mail.subject).toBe('Réinitialiser votre mot de passe Vigie');
    expect(mail.text).toContain('2 mars 2026');
    expect(mail.text).toContain('à 11\u202Fh');
    expect(mail.text).toContain('Si vous n’avez rien demandé, ignorez ce message\u202F: votre mot de passe ne change pas.');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash of the secret is kept: the outbox forgets the text once sent.
    const sent = await mailing.sentRow(account.organizationId, account.email);
    expect(sent.status).toBe('sent');
    expect(JSON.stringify(sent.payload)).not.toContain(token);

    const done = await confirm(token);
    expect(done.statusCode).toBe(204);
    expect(done.headers['cache-control']).toBe('no-store');
    // Every session ended at once.
    expect((await me(account)).statusCode).toBe(401);
    expect((await login(account.email, account.password)).statusCode).toBe(401);
    expect((await login(account.email, NEW_PASSWORD)).statusCode).toBe(200);

    // The link works once.
    const again = await confirm(token, 'encore un autre mot de passe');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: UNUSABLE });
    expect((await login(account.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('uses a link once when it is sent twice at the same time', async () => {
    const account = await mailing.t.createAccount();
    await ask(account.email);
    const { token } = await linkFor(account.email);
    const codes = (await Promise.all([confirm(token, 'premier mot de passe'), confirm(token, 'second mot de passe')]))
      .map((response) => response.statusCode)
      .sort();
    expect(codes).toEqual([204, 404]);
  });

  it('answers 410 for an expired link, and a newer link replaces an older one', async () => {
    const account = await mailing.t.createAccount();
    await ask(account.email);
    const first = await linkFor(account.email, 1);
    const start = mailing.clock;
    mailing.clock = new Date(start.getTime() + 3600_000 + 1000);
    try {
      const expired = await confirm(first.token);
      expect(expired.statusCode).toBe(410);
      expect(expired.json()).toEqual({ message: EXPIRED });

      await ask(account.email);
      const second = await linkFor(account.email, 2);
      expect(second.token).not.toBe(first.token);
      await ask(account.email);
      const third = await linkFor(account.email, 3);
      // The newest request invalidates the links sent before it.
      expect((await confirm(second.token)).statusCode).toBe(404);
      expect((await confirm(first.token)).statusCode).toBe(404);
      expect((await confirm(third.token)).statusCode).toBe(204);
      expect((await login(account.email, NEW_PASSWORD)).statusCode).toBe(200);
    } finally {
      mailing.clock = start;
    }
  });

  it('gives an unknown address the same answer and sends nothing', async () => {
    const known = await mailing.t.createAccount();
    const unknown = `personne-${crypto.randomUUID()}@example.fr`;
    const before = mailing.smtp.received.length;
    const answers = [await ask(unknown), await ask(known.email)];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(202);
      expect(answer.json()).toEqual({ message: PASSWORD_RESET_REQUESTED });
    }
    await linkFor(known.email);
    await mailing.t.app.services.passwordResets.idle();
    expect(mailing.smtp.received.length).toBe(before + 1);
    expect(mailing.smtp.received.some((mail) => recipientOf(mail) === unknown)).toBe(false);
    expect((await confirm('A'.repeat(43))).json()).toEqual({ message: UNUSABLE });
  });

  it('throttles requests per e-mail address and per IP address (429 with Retry-After)', async () => {
    const email = `limite-${crypto.randomUUID()}@example.fr`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await ask(email, '203.0.113.50')).statusCode).toBe(202);
    }
    // The same address from elsewhere: still refused, whether it has an account or not.
    const refused = await ask(email, '203.0.113.51');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<{ message: string }>().message).toMatch(/^Trop de demandes de réinitialisation/);
  });

  it('refuses bad input with a French 400 and sends nothing', async () => {
    const account = await mailing.t.createAccount();
    const before = mailing.smtp.received.length;
    for (const payload of [
      { email: 'pas-une-adresse' },
      { email: `nul\u0000${account.email}` },
      { email: `\ud800${account.email}` },
      { email: 42 },
      { email: account.email, extra: true },
      {},
    ]) {
      const response = await mailing.t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message, JSON.stringify(payload)).toMatch(FRENCH);
    }
    await ask(account.email);
    const { token } = await linkFor(account.email);
    for (const payload of [
      { token: 'court', password: NEW_PASSWORD },
      { token: `${token}\u0000`, password: NEW_PASSWORD },
      { token, password: 'court' },
      { token, password: `\ud800${NEW_PASSWORD}` },
      { token, password: `${NEW_PASSWORD}\u0000` },
      { token },
      { token, password: NEW_PASSWORD, email: account.email },
    ]) {
      const response = await mailing.t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message, JSON.stringify(payload)).toMatch(FRENCH);
    }
    // The link still works: nothing was used by the refused calls.
    expect((await confirm(token)).statusCode).toBe(204);
    expect(mailing.smtp.received.length).toBe(before + 1);
  });

  it('is public: no session needed, none given', async () => {
    const response = await ask(`public-${crypto.randomUUID()}@example.fr`, '203.0.113.9');
    expect(response.statusCode).toBe(202);
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});

describe(`password reset without e-mail (${databaseKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_IP: '3' } });
  });
  afterAll(() => t.close());

  it('still answers 202 and queues nothing', async () => {
    const account = await t.createAccount();
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: account.email } });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: PASSWORD_RESET_REQUESTED });
    await t.app.services.passwordResets.idle();
    expect(await t.app.services.notifications.outbox(account.organizationId)).toEqual([]);
  });

  it('throttles requests and link uses per IP address (429)', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const used = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token: 'B'.repeat(43), password: NEW_PASSWORD },
      });
      expect(used.statusCode).toBe(404);
    }
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token: 'B'.repeat(43), password: NEW_PASSWORD },
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<{ message: string }>().message).toMatch(/^Trop de/);

    // Requests from one IP address: 2 more allowed here (one was used above), then 429.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const email = `ip-${crypto.randomUUID()}@example.fr`;
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email } })).statusCode).toBe(202);
    }
    const tooMany = await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: 'autre@example.fr' } });
    expect(tooMany.statusCode).toBe(429);
    expect(Number(tooMany.headers['retry-after'])).toBeGreaterThan(0);
  });
});
