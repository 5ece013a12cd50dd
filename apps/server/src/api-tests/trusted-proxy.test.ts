import type { AuditResponse } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, databaseKind, type TestAccount, type TestApp } from '../test/test-app.ts';

/** What a client may write at the left of `X-Forwarded-For`, hoping to be taken at its word. */
const FORMULA = "=cmd|' /C calc'!A0";
const PROXY = '127.0.0.1';

/**
 * Behind a reverse proxy (TRUST_PROXY), the client's address is the one the proxy added at the
 * right of `X-Forwarded-For`: what the client wrote there itself chooses neither the address kept
 * in the audit trail nor the counter of the login limits.
 */
describe(`behind a reverse proxy (${databaseKind})`, () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true', LOGIN_MAX_FAILURES_PER_IP: '4', LOGIN_MAX_FAILURES_PER_EMAIL: '3' } });
    account = await t.createAccount();
  });
  afterAll(() => t.close());

  const login = (app: TestApp, forwardedFor: string, payload: object) =>
    app.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: PROXY, headers: { 'x-forwarded-for': forwardedFor }, payload });

  /** Signs in through the proxy; the address the trail kept for that sign-in. */
  async function signedInAddress(app: TestApp, who: TestAccount, forwardedFor: string): Promise<string | null> {
    const response = await login(app, forwardedFor, { email: who.email, password: who.password });
    expect(response.statusCode, response.body).toBe(200);
    const auth = { authorization: `Bearer ${response.json<{ accessToken: string }>().accessToken}` };
    const trail = body<AuditResponse>(await app.app.inject({ url: '/api/audit?action=auth.login&limit=1', headers: auth }));
    return trail.events[0]?.ip ?? null;
  }

  it('keeps the address the proxy added in the audit trail and its CSV, not what the client wrote', async () => {
    expect(await signedInAddress(t, account, `${FORMULA}, 203.0.113.9`)).toBe('203.0.113.9');
    const csv = await t.app.inject({ url: '/api/audit.csv?action=auth.login', headers: account.auth });
    const [, line] = csv.body.split('\r\n');
    expect(line?.split(';').at(-1)).toBe('203.0.113.9');
    expect(csv.body).not.toContain('=cmd');
  });

  it('counts a guesser at its own address whatever it writes in X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let guess = 1; guess <= 6; guess += 1) {
      const response = await login(t, `10.9.8.${guess}, 198.51.100.20`, {
        email: `inconnu-${guess}@example.fr`,
        password: 'pas le bon mot de passe',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('refuses in French, and records nothing, when the proxy’s entry is not an IP address', async () => {
    const before = body<AuditResponse>(await t.app.inject({ url: '/api/audit', headers: account.auth })).events.length;
    for (const forwardedFor of [`203.0.113.9, ${FORMULA}`, 'unknown', '203.0.113.9, 300.1.2.3']) {
      const response = await login(t, forwardedFor, { email: account.email, password: account.password });
      expect(response.statusCode, forwardedFor).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(
        'Adresse du client illisible dans l’en-tête X-Forwarded-For\u202F: le proxy doit y ajouter l’adresse IP d’où vient la requête.',
      );
    }
    expect(body<AuditResponse>(await t.app.inject({ url: '/api/audit', headers: account.auth })).events).toHaveLength(before);
  });

  it('walks back as many proxies as TRUST_PROXY counts, or through the addresses it names', async () => {
    const twoHops = await createTestApp({ env: { TRUST_PROXY: '2' } });
    const named = await createTestApp({ env: { TRUST_PROXY: `${PROXY}, 10.0.0.0/8` } });
    try {
      expect(await signedInAddress(twoHops, await twoHops.createAccount(), `${FORMULA}, 203.0.113.30, 10.1.1.1`)).toBe('203.0.113.30');
      const chain = `${FORMULA}, 203.0.113.40, 10.2.2.2`;
      expect(await signedInAddress(named, await named.createAccount(), chain)).toBe('203.0.113.40');
      // The first address outside the list is the client's.
      expect(await signedInAddress(named, await named.createAccount(), `${FORMULA}, 192.0.2.1`)).toBe('192.0.2.1');
    } finally {
      await twoHops.close();
      await named.close();
    }
  });
});
