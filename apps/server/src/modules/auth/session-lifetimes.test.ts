import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * Idle and absolute lifetimes (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS, SESSION_REMEMBER_DAYS),
 * on a clock the test moves: a session left alone ends, one in use lives on until its absolute end,
 * and « Se souvenir de moi » makes it long.
 */
describe(`session lifetimes (${databaseKind})`, () => {
  let t: TestApp;
  let clock = Date.parse('2026-11-23T08:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({
      env: { SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '12', SESSION_REMEMBER_DAYS: '30' },
      sessionClock: () => new Date(clock),
    });
  });
  afterAll(() => t.close());

  async function login(account: TestAccount, rememberMe?: boolean): Promise<string> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password, ...(rememberMe === undefined ? {} : { rememberMe }) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ accessToken: string }>().accessToken;
  }
  const me = async (token: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${token}` } })).statusCode;

  it('ends a session left idle for longer than the idle timeout', async () => {
    const token = await login(await t.createAccount());
    clock += 29 * MIN;
    expect(await me(token)).toBe(200);
    // Used 29 minutes in, it lives 30 more minutes from then.
    clock += 29 * MIN;
    expect(await me(token)).toBe(200);
    clock += 31 * MIN;
    expect(await me(token)).toBe(401);
  });

  it('ends a session in constant use at its absolute end', async () => {
    const token = await login(await t.createAccount(), false);
    const start = clock;
    while (clock - start < 12 * HOUR - 20 * MIN) {
      clock += 20 * MIN;
      expect(await me(token)).toBe(200);
    }
    clock = start + 12 * HOUR + MIN;
    expect(await me(token)).toBe(401);
  });

  it('« Se souvenir de moi »: survives a long idle, ends after the remembered days', async () => {
    const token = await login(await t.createAccount(), true);
    clock += 3 * DAY;
    expect(await me(token)).toBe(200);
    clock += 27 * DAY + MIN;
    expect(await me(token)).toBe(401);
  });

  it('refuses a « rememberMe » that is not a boolean, in French', async () => {
    const account = await t.createAccount();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password, rememberMe: 'oui' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain('rememberMe');
  });
});

/** A short idle timeout: a session used more often than it never ends, one left alone ends soon after it. */
describe(`a one-minute idle timeout (${databaseKind})`, () => {
  const SECOND = 1000;
  let t: TestApp;
  let clock = Date.parse('2026-11-23T08:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ env: { SESSION_IDLE_MINUTES: '1' }, sessionClock: () => new Date(clock) });
  });
  afterAll(() => t.close());

  const me = async (token: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${token}` } })).statusCode;

  it('keeps a session used every 10 seconds, or every 59, open; ends it a minute or a few seconds more after its last use', async () => {
    const account = await t.createAccount();
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    });
    const token = signedIn.json<{ accessToken: string }>().accessToken;
    const statuses: number[] = [];
    for (let use = 0; use < 30; use += 1) {
      clock += 10 * SECOND;
      statuses.push(await me(token));
    }
    for (let use = 0; use < 5; use += 1) {
      clock += 59 * SECOND;
      statuses.push(await me(token));
    }
    expect(statuses).toEqual(Array.from({ length: 35 }, () => 200));
    // Left alone: ended within a tenth of the timeout after it.
    clock += 66 * SECOND;
    expect(await me(token)).toBe(401);
  });
});
