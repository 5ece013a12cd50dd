import type { AuditResponse, CurrentUserResponse, TotpEnableResponse, TotpSetupResponse } from '@vigie/contract';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, databaseKind, TEST_JWT_SECRET, type TestAccount, type TestApp } from '../../test/test-app.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSecretBox } from './secret-box.ts';
import { setRole, setStoredTotpSecret, storedTotpSecrets } from '../../test/test-dal.ts';

const MIN = 60_000;
const WRONG_CODE = 'Code incorrect, expiré ou déjà utilisé.';
const SETUP_REQUIRED =
  'Votre organisation exige la double authentification des administrateurs : activez-la dans « Mon compte » pour continuer.';

/**
 * Two-factor authentication (issue 11): turned on with a code of an authenticator app, asked after
 * the password, each code and recovery code good once, and required of admins by an admin. Codes
 * are computed as an app would, on a clock the test moves.
 */
describe(`two-factor authentication (${databaseKind})`, () => {
  let t: TestApp;
  let clock = Date.parse('2026-11-24T08:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ sessionClock: () => new Date(clock) });
  });
  afterAll(() => t.close());

  const post = (url: string, payload?: object, account?: TestAccount) =>
    t.app.inject({ method: 'POST', url, ...(account ? { headers: account.auth } : {}), ...(payload ? { payload } : {}) });
  const codeOf = (secret: string, at = clock) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
  const login = (account: TestAccount) => post('/api/auth/login', { email: account.email, password: account.password });
  const message = (response: { body: string }) => (JSON.parse(response.body) as { message: string }).message;

  /** Turns it on for the account; answers its secret and recovery codes. */
  async function turnOn(account: TestAccount): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await post('/api/user/totp/setup', undefined, account);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = body<TotpSetupResponse>(setup);
    const enabled = await post('/api/user/totp/enable', { code: codeOf(secret) }, account);
    expect(enabled.statusCode, enabled.body).toBe(200);
    clock += MIN; // the code of enrolment is spent; the next sign-in uses a later one
    return { secret, recoveryCodes: body<TotpEnableResponse>(enabled).recoveryCodes };
  }

  /** The password step: the challenge of the code step. */
  async function challengeOf(account: TestAccount): Promise<string> {
    const response = await login(account);
    expect(response.statusCode, response.body).toBe(200);
    const answer = JSON.parse(response.body) as { totpRequired?: boolean; challenge?: string; accessToken?: string };
    expect(answer.totpRequired).toBe(true);
    expect(answer.accessToken).toBeUndefined();
    return answer.challenge ?? '';
  }

  it('is turned on by confirming a code of the app, and gives ten recovery codes', async () => {
    const account = await t.createAccount({ name: 'Inès Deux-Facteurs' });
    const setup = body<TotpSetupResponse>(await post('/api/user/totp/setup', undefined, account));
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.uri).toBe(
      `otpauth://totp/Vigie:${encodeURIComponent(account.email)}?issuer=Vigie&secret=${setup.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    // Until a code confirms it, nothing changes: the password alone still signs in.
    expect(JSON.parse((await login(account)).body)).toHaveProperty('accessToken');

    const wrong = await post('/api/user/totp/enable', { code: codeOf(setup.secret, clock - 5 * MIN) }, account);
    expect(wrong.statusCode).toBe(400);
    expect(message(wrong)).toBe(WRONG_CODE);
    const badFormat = await post('/api/user/totp/enable', { code: '12ab' }, account);
    expect(badFormat.statusCode).toBe(400);
    expect(message(badFormat)).toContain('Ce code n’a pas le bon format : 6 chiffres, ou un code de secours.');

    const enabled = await post('/api/user/totp/enable', { code: codeOf(setup.secret) }, account);
    expect(enabled.statusCode).toBe(200);
    expect(enabled.headers['cache-control']).toBe('no-store');
    const { recoveryCodes } = body<TotpEnableResponse>(enabled);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
    const me = body<CurrentUserResponse>(await t.app.inject({ url: '/api/user/me', headers: account.auth }));
    expect(me.user.totpEnabled).toBe(true);
    expect((await post('/api/user/totp/setup', undefined, account)).statusCode).toBe(409);
  });

  it('asks for a code after the password; a code works once, a recovery code once, a challenge 5 minutes', async () => {
    const account = await t.createAccount();
    const { secret, recoveryCodes } = await turnOn(account);

    const challenge = await challengeOf(account);
    // The challenge opens nothing but the code step.
    expect((await t.app.inject({ url: '/api/user/me', headers: { authorization: `Bearer ${challenge}` } })).statusCode).toBe(401);
    const wrong = await post('/api/auth/login/totp', { challenge, code: codeOf(secret, clock - 10 * MIN) });
    expect(wrong.statusCode).toBe(401);
    expect(message(wrong)).toBe(WRONG_CODE);

    const code = codeOf(secret);
    const signedIn = await post('/api/auth/login/totp', { challenge, code });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    const { accessToken } = JSON.parse(signedIn.body) as { accessToken: string };
    expect((await t.app.inject({ url: '/api/user/me', headers: { authorization: `Bearer ${accessToken}` } })).statusCode).toBe(200);
    // The same code again, even from a new password step: refused.
    const replay = await post('/api/auth/login/totp', { challenge: await challengeOf(account), code });
    expect(replay.statusCode).toBe(401);

    // A recovery code, typed in capitals and without its dash: good once.
    const recovery = (recoveryCodes[0] ?? '').replace('-', '').toUpperCase();
    expect((await post('/api/auth/login/totp', { challenge: await challengeOf(account), code: recovery })).statusCode).toBe(200);
    expect((await post('/api/auth/login/totp', { challenge: await challengeOf(account), code: recovery })).statusCode).toBe(401);

    // A challenge left more than 5 minutes: the password again.
    const late = await challengeOf(account);
    clock += 6 * MIN;
    const expired = await post('/api/auth/login/totp', { challenge: late, code: codeOf(secret) });
    expect(expired.statusCode).toBe(401);
    expect(message(expired)).toBe('La connexion a expiré : saisissez de nouveau votre mot de passe.');

    // Every step is in the organization's trail.
    const trail = body<AuditResponse>(await t.app.inject({ url: '/api/audit', headers: account.auth }));
    const steps = trail.events.filter((event) => event.action.startsWith('auth.')).map((event) => [event.action, event.details]);
    expect(steps.slice(0, 5)).toEqual([
      ['auth.login_failed', { step: 'code' }],
      ['auth.login', { step: 'recovery-code' }],
      ['auth.login_failed', { step: 'code' }],
      ['auth.login', { step: 'app' }],
      ['auth.login_failed', { step: 'code' }],
    ]);
    expect(steps).toContainEqual(['auth.totp_enabled', null]);
  });

  it('counts wrong codes against the account, whatever the address and however often the right password is given', async () => {
    const account = await t.createAccount();
    const { secret } = await turnOn(account);
    /** The right password, then a wrong code from an address of its own, as a guesser holding the password would. */
    const guess = async (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login/totp',
        remoteAddress: `198.51.100.${n}`,
        payload: { challenge: await challengeOf(account), code: codeOf(secret, clock - 10 * MIN) },
      });
    const statuses: number[] = [];
    for (let n = 1; n <= 9; n += 1) statuses.push((await guess(n)).statusCode);
    // The owner's right code starts the count again.
    expect((await post('/api/auth/login/totp', { challenge: await challengeOf(account), code: codeOf(secret) })).statusCode).toBe(200);
    clock += MIN;
    for (let n = 10; n <= 21; n += 1) statuses.push((await guess(n)).statusCode);
    // LOGIN_MAX_FAILURES_PER_EMAIL (10) wrong codes in the window, then none is checked.
    expect(statuses).toEqual([...Array<number>(19).fill(401), 429, 429]);
    const refused = await post('/api/auth/login/totp', { challenge: await challengeOf(account), code: codeOf(secret) });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(message(refused)).toMatch(/^Trop de tentatives/);
  });

  it('is turned off with the password only', async () => {
    const account = await t.createAccount();
    await turnOn(account);
    const wrong = await post('/api/user/totp/disable', { password: 'pas le bon' }, account);
    expect(wrong.statusCode).toBe(400);
    expect(message(wrong)).toBe('Le mot de passe actuel est incorrect.');
    expect((await post('/api/user/totp/disable', { password: account.password }, account)).statusCode).toBe(204);
    expect(JSON.parse((await login(account)).body)).toHaveProperty('accessToken');
  });

  it('can be required of admins by an admin who has it: the others must turn it on before anything else', async () => {
    const organization = `Org ${crypto.randomUUID()}`;
    const first = await t.createAccount({ organization, name: 'Première admin' });
    const second = await t.createAccount({ organization, name: 'Second admin' });
    const manager = await t.createAccount({ organization, name: 'Responsable' });
    await setRole(t, manager.id, 'manager');
    const require = (account: TestAccount, value: boolean) =>
      t.app.inject({ method: 'PUT', url: '/api/organization/security', headers: account.auth, payload: { requireTotpForAdmins: value } });

    const tooEarly = await require(first, true);
    expect(tooEarly.statusCode).toBe(409);
    expect(message(tooEarly)).toBe(
      'Activez d’abord la double authentification sur votre propre compte, pour ne pas vous en fermer l’accès.',
    );
    expect((await require(manager, true)).statusCode).toBe(403);
    await turnOn(first);
    expect((await require(first, true)).statusCode).toBe(200);

    // The second admin may only reach their own account until they turn it on; the manager is not concerned.
    const blocked = await t.app.inject({ url: '/api/sensor', headers: second.auth });
    expect(blocked.statusCode).toBe(403);
    expect(message(blocked)).toBe(SETUP_REQUIRED);
    const me = body<CurrentUserResponse>(await t.app.inject({ url: '/api/user/me', headers: second.auth }));
    expect(me.user.totpSetupRequired).toBe(true);
    expect((await t.app.inject({ url: '/api/sensor', headers: manager.auth })).statusCode).toBe(200);
    await turnOn(second);
    expect((await t.app.inject({ url: '/api/sensor', headers: second.auth })).statusCode).toBe(200);

    // Nor can an admin turn it off while it is required.
    const off = await post('/api/user/totp/disable', { password: first.password }, first);
    expect(off.statusCode).toBe(409);
    expect((await require(first, false)).statusCode).toBe(200);
    expect((await post('/api/user/totp/disable', { password: first.password }, first)).statusCode).toBe(204);
  });

  it('renews the recovery codes given the password: the old ones, used or not, stop working', async () => {
    const account = await t.createAccount();
    const remaining = async () => t.app.inject({ url: '/api/user/totp/recovery-codes', headers: account.auth });
    const notOn = 'La double authentification n’est pas activée sur ce compte\u202F: il n’a pas de codes de secours.';
    expect(message(await remaining())).toBe(notOn);
    const early = await post('/api/user/totp/recovery-codes', { password: account.password }, account);
    expect(early.statusCode).toBe(409);
    expect(message(early)).toBe(notOn);

    const { recoveryCodes } = await turnOn(account);
    const [spent, kept] = recoveryCodes;
    expect((await post('/api/auth/login/totp', { challenge: await challengeOf(account), code: spent })).statusCode).toBe(200);
    const nine = await remaining();
    expect(nine.statusCode).toBe(200);
    expect(nine.headers['cache-control']).toBe('no-store');
    expect(body<{ remaining: number }>(nine)).toEqual({ remaining: 9 });

    const wrong = await post('/api/user/totp/recovery-codes', { password: 'pas le bon' }, account);
    expect(wrong.statusCode).toBe(400);
    expect(message(wrong)).toBe('Le mot de passe actuel est incorrect.');
    expect(body<{ remaining: number }>(await remaining())).toEqual({ remaining: 9 });

    const renewed = await post('/api/user/totp/recovery-codes', { password: account.password }, account);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.headers['cache-control']).toBe('no-store');
    const fresh = body<TotpEnableResponse>(renewed).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    expect(body<{ remaining: number }>(await remaining())).toEqual({ remaining: 10 });
    expect((await post('/api/auth/login/totp', { challenge: await challengeOf(account), code: kept })).statusCode).toBe(401);
    expect((await post('/api/auth/login/totp', { challenge: await challengeOf(account), code: fresh[0] })).statusCode).toBe(200);

    const trail = body<AuditResponse>(await t.app.inject({ url: '/api/audit', headers: account.auth }));
    expect(trail.events.map((event) => event.action)).toContain('auth.totp_recovery_codes_renewed');
  });

  it('is reset by an admin for a member who lost it: their sessions end and they must turn it on again', async () => {
    const organization = `Org ${crypto.randomUUID()}`;
    const admin = await t.createAccount({ organization });
    const member = await t.createAccount({ organization });
    const stranger = await t.createAccount();
    const reset = (account: TestAccount, by: TestAccount, password = by.password) =>
      post(`/api/members/${account.id}/two-factor/reset`, { password }, by);
    await turnOn(admin);
    await turnOn(member);
    await turnOn(stranger);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/organization/security',
          headers: admin.auth,
          payload: { requireTotpForAdmins: true },
        })
      ).statusCode,
    ).toBe(200);

    const own = await reset(admin, admin);
    expect(own.statusCode).toBe(409);
    expect(message(own)).toBe('Votre propre double authentification se gère dans « Mon compte ».');
    const elsewhere = await reset(stranger, admin);
    expect(elsewhere.statusCode).toBe(404);
    expect(JSON.parse((await login(stranger)).body)).toHaveProperty('totpRequired', true);
    expect((await t.app.inject({ url: '/api/user/me', headers: stranger.auth })).statusCode).toBe(200);
    // The admin's password is asked too: a stolen session alone strips no one's second factor.
    const wrong = await reset(member, admin, 'pas le bon');
    expect(wrong.statusCode).toBe(400);
    expect(message(wrong)).toBe('Le mot de passe actuel est incorrect.');
    expect((await t.app.inject({ url: '/api/user/me', headers: member.auth })).statusCode).toBe(200);
    const challengeBefore = await challengeOf(member);

    const done = await reset(member, admin);
    expect(done.statusCode, done.body).toBe(204);
    // Signed out everywhere; the password alone signs in, and the organization's rule asks for a new enrolment.
    expect((await t.app.inject({ url: '/api/user/me', headers: member.auth })).statusCode).toBe(401);
    // A code step begun before the reset opens nothing.
    const late = await post('/api/auth/login/totp', { challenge: challengeBefore, code: '123456' });
    expect(late.statusCode).toBe(401);
    const signedIn = JSON.parse((await login(member)).body) as { accessToken?: string };
    expect(signedIn.accessToken).toBeDefined();
    const me = body<CurrentUserResponse>(
      await t.app.inject({ url: '/api/user/me', headers: { authorization: `Bearer ${signedIn.accessToken}` } }),
    );
    expect(me.user).toMatchObject({ totpEnabled: false, totpSetupRequired: true });

    const again = await reset(member, admin);
    expect(again.statusCode).toBe(409);
    expect(message(again)).toBe('Ce membre n’a pas activé la double authentification\u202F: il n’y a rien à réinitialiser.');
    const trail = body<AuditResponse>(await t.app.inject({ url: '/api/audit', headers: admin.auth }));
    expect(trail.events.find((event) => event.action === 'member.two_factor_reset')).toMatchObject({
      subject: { id: member.id },
      details: { endedSessions: 1 },
    });
  });

  it('keeps the secret sealed in the database, bound to its account, and seals those stored before sealing', async () => {
    const account = await t.createAccount();
    const setup = body<TotpSetupResponse>(await post('/api/user/totp/setup', undefined, account));
    // Neither the pending secret nor, once confirmed, the active one is readable in the database.
    const pending = await storedTotpSecrets(t, account.id);
    expect(pending.pending).toMatch(/^v1\.[0-9a-f]{16}\./);
    expect(pending.pending).not.toContain(setup.secret);
    expect((await post('/api/user/totp/enable', { code: codeOf(setup.secret) }, account)).statusCode).toBe(200);
    clock += MIN;
    const stored = await storedTotpSecrets(t, account.id);
    expect(stored).toEqual({ secret: pending.pending, pending: null });
    expect((await post('/api/auth/login/totp', { challenge: await challengeOf(account), code: codeOf(setup.secret) })).statusCode).toBe(
      200,
    );

    // Copied onto another account, a sealed secret does not open there: a clear 503, never a sign-in.
    const other = await t.createAccount();
    const { secret: otherSecret } = await turnOn(other);
    await setStoredTotpSecret(t, other.id, stored.secret ?? '');
    const moved = await post('/api/auth/login/totp', { challenge: await challengeOf(other), code: codeOf(setup.secret) });
    expect(moved.statusCode).toBe(503);
    expect(message(moved)).toBe(
      'La double authentification de ce compte ne peut pas être vérifiée par ce serveur\u202F: connectez-vous avec un de vos codes de secours, et prévenez la personne qui administre le serveur Vigie.',
    );

    // A secret stored in clear (before sealing existed, or by an instance not yet updated) still
    // works, and is sealed on its first use…
    await setStoredTotpSecret(t, other.id, otherSecret);
    clock += MIN;
    expect((await post('/api/auth/login/totp', { challenge: await challengeOf(other), code: codeOf(otherSecret) })).statusCode).toBe(200);
    expect((await storedTotpSecrets(t, other.id)).secret).toMatch(/^v1\./);

    // …or at start-up, and its codes still work.
    await setStoredTotpSecret(t, other.id, otherSecret);
    // (Another app starting on a shared database may seal it first, with the same key: the outcome is the same.)
    await t.app.services.totp.sealStoredSecrets();
    const sealed = await storedTotpSecrets(t, other.id);
    expect(sealed.secret).toMatch(/^v1\./);
    expect(sealed.secret).not.toContain(otherSecret);
    clock += MIN;
    expect((await post('/api/auth/login/totp', { challenge: await challengeOf(other), code: codeOf(otherSecret) })).statusCode).toBe(200);
  });

  it('reads secrets with the keys it is given: a server without the key says so, one given it as a previous key seals them again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-totp-key-'));
    const key = 'une-clé-totp-de-test-d-au-moins-trente-deux-caractères';
    const at = () => new Date(clock);
    /** The code step of a sign-in on `server`: its status and message. */
    const codeStep = async (server: TestApp, account: TestAccount, code: string) => {
      const password = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: account.email, password: account.password },
      });
      const { challenge } = JSON.parse(password.body) as { challenge: string };
      const response = await server.app.inject({ method: 'POST', url: '/api/auth/login/totp', payload: { challenge, code } });
      clock += MIN;
      return { status: response.statusCode, message: message(response) };
    };
    try {
      // A server with its own TOTP_KEY turns it on for an account…
      const keyed = await createTestApp({ dataDir, sessionClock: at, env: { TOTP_KEY: key } });
      let account: TestAccount;
      let secret: string;
      let recoveryCodes: string[];
      try {
        account = await keyed.createAccount();
        const setup = body<TotpSetupResponse>(
          await keyed.app.inject({ method: 'POST', url: '/api/user/totp/setup', headers: account.auth }),
        );
        secret = setup.secret;
        const enabled = await keyed.app.inject({
          method: 'POST',
          url: '/api/user/totp/enable',
          headers: account.auth,
          payload: { code: codeOf(secret) },
        });
        expect(enabled.statusCode).toBe(200);
        recoveryCodes = body<TotpEnableResponse>(enabled).recoveryCodes;
        expect((await storedTotpSecrets(keyed, account.id)).secret?.startsWith(createSecretBox(key, 'totp-secrets').ownPrefix)).toBe(true);
      } finally {
        await keyed.close();
      }
      clock += MIN;

      // …a server without it, on the same database, cannot check the app's codes: it says so, and
      // the recovery codes still sign in.
      const unkeyed = await createTestApp({ dataDir, sessionClock: at });
      try {
        expect((await unkeyed.app.services.totp.sealStoredSecrets()).unreadable).toBeGreaterThanOrEqual(1);
        expect(await codeStep(unkeyed, account, codeOf(secret))).toEqual({
          status: 503,
          message:
            'La double authentification de ce compte ne peut pas être vérifiée par ce serveur\u202F: connectez-vous avec un de vos codes de secours, et prévenez la personne qui administre le serveur Vigie.',
        });
        expect((await codeStep(unkeyed, account, recoveryCodes[0] ?? '')).status).toBe(200);
      } finally {
        await unkeyed.close();
      }

      // A server given it as a previous key seals the secret again with its own at start-up.
      const rotated = await createTestApp({ dataDir, sessionClock: at, env: { TOTP_PREVIOUS_KEYS: key } });
      try {
        const { secret: stored } = await storedTotpSecrets(rotated, account.id);
        expect(stored?.startsWith(createSecretBox(TEST_JWT_SECRET, 'totp-secrets').ownPrefix)).toBe(true);
        expect((await codeStep(rotated, account, codeOf(secret))).status).toBe(200);
      } finally {
        await rotated.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
