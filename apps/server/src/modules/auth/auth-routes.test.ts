import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenService, TOKEN_TTL_SECONDS } from './token-service.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind, TEST_JWT_SECRET } from '../../test/test-app.ts';

const base64url = (value: object | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function forge(header: object, payload: object, secret?: string): string {
  const unsigned = `${base64url(header)}.${base64url(payload)}`;
  const signature = secret ? createHmac('sha256', secret).update(unsigned).digest('base64url') : '';
  return `${unsigned}.${signature}`;
}

describe(`authentication on ${databaseKind}`, () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_EMAIL: '3', LOGIN_MAX_FAILURES_PER_IP: '8' } });
    account = await t.createAccount({ name: 'Camille Test' });
  });
  afterAll(() => t.close());

  const login = (payload: unknown, ip = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, remoteAddress: ip });
  const me = (authorization?: string) => t.app.inject({ url: '/api/user/me', headers: authorization ? { authorization } : {} });

  it('logs in with 200 and an HS256 access token valid 12 h for the user', async () => {
    const response = await login({ email: account.email, password: account.password });
    expect(response.statusCode).toBe(200);
    const { accessToken } = response.json<{ accessToken: string }>();
    const [header, payload] = accessToken
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    expect(header?.['alg']).toBe('HS256');
    expect(payload?.['sub']).toBe(account.id);
    expect(Number(payload?.['exp']) - Number(payload?.['iat'])).toBe(TOKEN_TTL_SECONDS);
  });

  it('accepts the email in any letter case', async () => {
    const response = await login({ email: account.email.toUpperCase(), password: account.password });
    expect(response.statusCode).toBe(200);
  });

  it('returns the current user under user, without any password hash', async () => {
    const response = await me(account.auth.authorization);
    expect(response.statusCode).toBe(200);
    const { user } = response.json<{ user: Record<string, unknown> }>();
    expect(user).toEqual({
      id: account.id,
      name: 'Camille Test',
      email: account.email,
      role: 'admin',
      organization: { id: account.organizationId, name: expect.any(String) },
      scope: null,
      totpEnabled: false,
      totpSetupRequired: false,
      operator: false,
    });
    expect(response.body).not.toMatch(/argon2|password|secret/i);
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const other = await t.createAccount();
    const wrongPassword = await login({ email: other.email, password: 'pas le bon' }, '10.0.0.2');
    const unknownEmail = await login({ email: 'personne@example.fr', password: 'pas le bon' }, '10.0.0.2');
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Identifiants invalides' });
    }
  });

  it('spends the same password-hashing time on an unknown email as on a wrong password', async () => {
    const time = async (email: string) => {
      const start = process.hrtime.bigint();
      await login({ email, password: 'toujours faux' }, `10.1.0.${Math.floor(Math.random() * 250)}`);
      return Number(process.hrtime.bigint() - start);
    };
    const other = await t.createAccount();
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      known.push(await time(other.email));
      unknown.push(await time(`absent-${i}@example.fr`));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    // Without the dummy verification an unknown email answers ~50x faster; allow noise, not that.
    expect(median(unknown) / median(known)).toBeGreaterThan(0.3);
  });

  it('refuses malformed login bodies with 400 and a French message', async () => {
    for (const payload of [{}, { email: 'a@b.fr' }, { email: 3, password: 'x' }, { email: 'a@b.fr', password: 'x', extra: 1 }]) {
      const response = await login(payload, '10.0.0.3');
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/[a-zé]/);
    }
  });

  it('limits failed attempts per email with 429 and Retry-After, even for the right password, and resets on success elsewhere', async () => {
    const target = await t.createAccount();
    for (let i = 0; i < 3; i += 1) {
      expect((await login({ email: target.email, password: 'faux' }, `10.2.0.${i}`)).statusCode).toBe(401);
    }
    const blocked = await login({ email: target.email.toUpperCase(), password: target.password }, '10.2.0.99');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json<{ message: string }>().message).toMatch(/Trop de tentatives/);
    // Another account is not affected.
    expect((await login({ email: account.email, password: account.password }, '10.2.0.98')).statusCode).toBe(200);
  });

  it('limits failed attempts per IP address across emails', async () => {
    for (let i = 0; i < 8; i += 1) {
      expect((await login({ email: `inconnu-${i}@example.fr`, password: 'faux' }, '10.3.0.1')).statusCode).toBe(401);
    }
    const blocked = await login({ email: account.email, password: account.password }, '10.3.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await login({ email: account.email, password: account.password }, '10.3.0.2')).statusCode).toBe(200);
  });

  describe('rejects tokens that are not exactly ours', () => {
    const now = () => Math.floor(Date.now() / 1000);
    /** The session of the account's login: a token names the session it belongs to. */
    const sid = () => (JSON.parse(Buffer.from(account.token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string }).sid;
    const claims = () => ({ sub: account.id, sid: sid(), iss: 'vigie', aud: 'vigie-api', iat: now(), exp: now() + 3600 });

    it('accepts a well-formed token signed with the secret (control)', async () => {
      expect((await me(`Bearer ${forge({ alg: 'HS256', typ: 'JWT' }, claims(), TEST_JWT_SECRET)}`)).statusCode).toBe(200);
    });

    it('401 for a well-signed token that names no session, or a session that is not this user’s', async () => {
      const { sid: _, ...sessionless } = claims();
      expect((await me(`Bearer ${forge({ alg: 'HS256', typ: 'JWT' }, sessionless, TEST_JWT_SECRET)}`)).statusCode).toBe(401);
      const other = await t.createAccount();
      const foreign = { ...claims(), sub: other.id };
      expect((await me(`Bearer ${forge({ alg: 'HS256', typ: 'JWT' }, foreign, TEST_JWT_SECRET)}`)).statusCode).toBe(401);
    });

    it.each([
      ['no header', undefined],
      ['a non-bearer scheme', 'Basic dXNlcjpwYXNz'],
      ['garbage', 'Bearer not.a.token'],
    ])('401 with %s', async (_, header) => {
      const response = await me(header);
      expect(response.statusCode).toBe(401);
      expect(response.json<{ message: string }>().message).toMatch(/connect/i);
    });

    it('401 for a tampered payload', async () => {
      const [h, , s] = account.token.split('.');
      const tampered = `${h}.${base64url({ ...claims(), sub: '00000000-0000-4000-8000-000000000000' })}.${s}`;
      expect((await me(`Bearer ${tampered}`)).statusCode).toBe(401);
    });

    it('401 for an alg: none token', async () => {
      expect((await me(`Bearer ${forge({ alg: 'none', typ: 'JWT' }, claims())}`)).statusCode).toBe(401);
    });

    it('401 for a token signed with another secret or algorithm', async () => {
      expect((await me(`Bearer ${forge({ alg: 'HS256' }, claims(), 'another-secret-of-at-least-thirty-two-chars')}`)).statusCode).toBe(401);
      expect((await me(`Bearer ${forge({ alg: 'HS512' }, claims(), TEST_JWT_SECRET)}`)).statusCode).toBe(401);
    });

    it('401 for an expired token', async () => {
      const expired = forge({ alg: 'HS256' }, { ...claims(), iat: now() - 13 * 3600, exp: now() - 3600 }, TEST_JWT_SECRET);
      expect((await me(`Bearer ${expired}`)).statusCode).toBe(401);
    });

    it('401 once the 12 h have passed for a token the server issued', async () => {
      let clock = Date.now();
      const tokens = createTokenService(TEST_JWT_SECRET, () => clock);
      const token = await tokens.issue(account.id);
      expect(await tokens.verify(token)).toBe(account.id);
      clock += (TOKEN_TTL_SECONDS + 1) * 1000;
      expect(await tokens.verify(token)).toBeNull();
    });

    it('401 for a valid token of a user that no longer exists', async () => {
      const ghost = forge({ alg: 'HS256' }, { ...claims(), sub: '00000000-0000-4000-8000-000000000000' }, TEST_JWT_SECRET);
      expect((await me(`Bearer ${ghost}`)).statusCode).toBe(401);
    });
  });
});
