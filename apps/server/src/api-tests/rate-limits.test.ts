import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseUrl, type TestAccount, type TestApp } from '../test/test-app.ts';

const LIMITS = { LOGIN_MAX_FAILURES_PER_IP: '4', LOGIN_MAX_FAILURES_PER_EMAIL: '3' };

/** Behind a load balancer, an attempt counts wherever it lands, and a restart forgets nothing. */
describe.runIf(databaseUrl)('rate limits shared by two instances on PostgreSQL', () => {
  const scope = `${randomUUID()}:`;
  let first: TestApp;
  let second: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    first = await createTestApp({ env: LIMITS, applicationName: 'vigie-limits-a', rateLimitScope: scope });
    second = await createTestApp({ env: LIMITS, applicationName: 'vigie-limits-b', rateLimitScope: scope });
    account = await first.createAccount();
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  const wrongLogin = (t: TestApp, email: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'pas le bon mot de passe' }, remoteAddress: ip });

  it('stops an address at the limit, whichever instance its attempts reach', async () => {
    const ip = '198.51.100.7';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      statuses.push((await wrongLogin(attempt % 2 === 0 ? first : second, `inconnu-${attempt}@example.fr`, ip)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    for (const t of [first, second]) {
      const refused = await wrongLogin(t, 'encore@example.fr', ip);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json<{ message: string }>().message).toMatch(/^Trop de tentatives/);
    }
  });

  it('counts the guesses at one account from one address across instances, and through a restart', async () => {
    const ip = '198.51.100.8';
    for (const t of [first, second, first]) expect((await wrongLogin(t, account.email, ip)).statusCode).toBe(401);
    expect((await wrongLogin(second, account.email, ip)).statusCode).toBe(429);

    // An instance started afterwards, as after a crash, knows the count.
    const restarted = await createTestApp({ env: LIMITS, applicationName: 'vigie-limits-c', rateLimitScope: scope });
    try {
      const refused = await restarted.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: account.email, password: account.password },
        remoteAddress: ip,
      });
      expect(refused.statusCode).toBe(429);
      // The owner, from another address, is not locked out by it.
      const owner = await restarted.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: account.email, password: account.password },
        remoteAddress: '203.0.113.50',
      });
      expect(owner.statusCode).toBe(200);
    } finally {
      await restarted.close();
    }
  });

  it('counts the wrong two-factor codes of an account across instances, the right password given each time', async () => {
    const owner = await first.createAccount();
    const setup = await first.app.inject({ method: 'POST', url: '/api/user/totp/setup', headers: owner.auth });
    const app = new TOTP({ secret: Secret.fromBase32(setup.json<{ secret: string }>().secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const enabled = await first.app.inject({
      method: 'POST',
      url: '/api/user/totp/enable',
      headers: owner.auth,
      payload: { code: app.generate() },
    });
    expect(enabled.statusCode).toBe(200);
    // Each guess from an address of its own: only the account's count can stop them.
    const wrongCode = async (t: TestApp, remoteAddress: string) => {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress,
        payload: { email: owner.email, password: owner.password },
      });
      const payload = {
        challenge: login.json<{ challenge: string }>().challenge,
        code: app.generate({ timestamp: Date.now() - 3_600_000 }),
      };
      return (await t.app.inject({ method: 'POST', url: '/api/auth/login/totp', remoteAddress, payload })).statusCode;
    };
    const statuses: number[] = [];
    for (const [n, t] of [first, second, first, second].entries()) statuses.push(await wrongCode(t, `198.51.100.${40 + n}`));
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('lets the owner in from an address they signed in from, on instances that never saw them, while strangers are held', async () => {
    const owner = await first.createAccount(); // signs in from 127.0.0.1, through the first instance
    // Started afterwards, as after a restart: they know the owner only from the database.
    const third = await createTestApp({ env: LIMITS, applicationName: 'vigie-limits-d', rateLimitScope: scope });
    try {
      const statuses: number[] = [];
      for (let n = 1; n <= 8; n += 1)
        statuses.push((await wrongLogin(n % 2 === 0 ? third : second, owner.email, `203.0.113.${100 + n}`)).statusCode);
      expect(statuses).toContain(429);
      for (const t of [third, second]) {
        const signIn = await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: owner.email, password: owner.password },
        });
        expect(signIn.statusCode, signIn.body).toBe(200);
      }
    } finally {
      await third.close();
    }
  });

  it('counts password-reset requests for one address across instances', async () => {
    const ip = '198.51.100.9';
    const ask = (t: TestApp, n: number) =>
      t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: `reset-${n}@example.fr` }, remoteAddress: ip });
    const statuses: number[] = [];
    for (let n = 0; n < 5; n += 1) statuses.push((await ask(n % 2 === 0 ? first : second, n)).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 429]);
    expect((await ask(first, 99)).statusCode).toBe(429);
  });

  it('keeps the counters of windows still open when the hourly job purges', async () => {
    await first.app.services.rateLimits.purgeExpired(new Date());
    expect((await wrongLogin(second, account.email, '198.51.100.8')).statusCode).toBe(429);
  });
});
