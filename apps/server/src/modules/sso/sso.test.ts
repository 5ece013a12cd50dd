import { randomUUID } from 'node:crypto';
import type { CreatedApiKeyResponse, SsoSettingsResponse, User } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../../test/oidc-provider.ts';
import { setRole } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const PUBLIC_URL = 'http://vigie.test';
/** A 400's sentence without the field the error handler names after it. */
const sentence = (response: { json<T>(): T }) => response.json<{ message: string }>().message.replace(/ \(champ « [^»]+ »\)$/, '');
const CALLBACK = `${PUBLIC_URL}/api/auth/sso/callback`;

/** docs/api.md, Authentification unique: sign-in through a real OpenID Connect provider on loopback. */
describe(`single sign-on with OpenID Connect (${databaseKind})`, () => {
  let t: TestApp;
  let idp: TestOidcProvider;
  let admin: TestAccount;
  let organization: string;
  let clock = new Date();
  const domain = `sso-${randomUUID().slice(0, 8)}.test`;
  const otherDomain = `autre-${randomUUID().slice(0, 8)}.test`;

  const call = (auth: { authorization: string } | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(auth ? { headers: auth } : {}), ...(payload === undefined ? {} : { payload }) });
  const settings = (overrides: object = {}) => ({
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    domains: [domain],
    defaultRole: 'viewer',
    groupRoles: { 'Qualité Siège': 'manager' },
    enforced: false,
    ...overrides,
  });
  const put = (body: object, auth = admin.auth) => call(auth, 'PUT', '/api/organization/sso', body);

  /** start → the provider's sign-in and consent → the callback: where the callback sends the browser. */
  async function throughProvider(email: string, next?: string) {
    const query = new URLSearchParams({ email, ...(next ? { next } : {}) });
    const started = await call(undefined, 'GET', `/api/auth/sso/start?${query.toString()}`);
    expect(started.statusCode, started.body).toBe(302);
    const authorization = new URL(String(started.headers.location));
    expect(authorization.origin).toBe(idp.issuer);
    const back = await idp.signIn(authorization.href, email);
    const callback = await call(undefined, 'GET', `${back.pathname}${back.search}`);
    expect(callback.statusCode, callback.body).toBe(302);
    return { authorization, back, location: String(callback.headers.location) };
  }
  const codeOf = (location: string) => {
    expect(location).toMatch(/^\/login\/sso#/);
    return new URLSearchParams(location.slice(location.indexOf('#') + 1));
  };
  const exchange = (code: string) => call(undefined, 'POST', '/api/auth/sso/exchange', { code });
  const me = async (accessToken: string) => {
    const response = await call({ authorization: `Bearer ${accessToken}` }, 'GET', '/api/user/me');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ user: User }>().user;
  };

  beforeAll(async () => {
    idp = await startOidcProvider(CALLBACK);
    t = await createTestApp({ now: () => clock, env: { PUBLIC_URL, WEBHOOK_ALLOW_PRIVATE: 'true' } });
    organization = `Chaîne ${randomUUID()}`;
    admin = await t.createAccount({ organization, name: 'Directrice' });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('is set by an admin, never gives its secret back, keeps it when a PUT leaves it out, and refuses bad input in French', async () => {
    expect((await call(admin.auth, 'GET', '/api/organization/sso')).json()).toEqual({ sso: null });
    // The first time, the secret is required.
    const without = await put({ ...settings(), clientSecret: undefined });
    expect(without.statusCode, without.body).toBe(400);
    expect(without.json<{ message: string }>().message).toBe(
      'Le secret du client est obligatoire la première fois que l’authentification unique est réglée.',
    );

    const saved = await put(settings());
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = {
      issuer: idp.issuer,
      clientId: idp.clientId,
      domains: [domain],
      defaultRole: 'viewer',
      groupRoles: { 'Qualité Siège': 'manager' },
      enforced: false,
    };
    expect(saved.json<SsoSettingsResponse>()).toEqual({ sso: expected });
    expect(saved.body).not.toContain(idp.clientSecret);
    const read = await call(admin.auth, 'GET', '/api/organization/sso');
    expect(read.json<SsoSettingsResponse>()).toEqual({ sso: expected });
    expect(read.body).not.toContain(idp.clientSecret);

    // Without clientSecret, the stored one is kept: the sign-in below still authenticates with it.
    const kept = await put({ ...settings({ domains: [domain.toUpperCase()] }), clientSecret: undefined });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<SsoSettingsResponse>().sso?.domains).toEqual([domain]);

    const refused = async (body: object, status = 400) => {
      const response = await put(body);
      expect(response.statusCode, response.body).toBe(status);
      return sentence(response);
    };
    expect(await refused(settings({ issuer: 'ftp://idp.example.fr' }))).toBe('L’émetteur doit être une adresse http:// ou https://.');
    expect(await refused(settings({ domains: ['@exemple.fr'] }))).toBe(
      'Un domaine doit s’écrire comme « exemple.fr », sans « @ » ni espace.',
    );
    expect(await refused(settings({ domains: [] }))).toBe('Indiquez au moins un domaine d’adresse e-mail.');
    expect(await refused(settings({ defaultRole: 'owner' }))).toBe('Le rôle doit être « admin », « manager » ou « viewer ».');
    expect(await refused(settings({ enforced: 'oui' }))).toBe('enforced doit valoir true ou false.');
    expect(await refused(settings({ clientId: '' }))).toBe('L’identifiant du client est obligatoire.');
    expect(await refused(settings({ clientSecret: '' }))).toBe(
      'Le secret du client ne peut pas être vide : omettez-le pour garder celui enregistré.',
    );
    expect(await refused(settings({ issuer: `${idp.issuer}/nulle-part` }))).toMatch(
      /^Le fournisseur d’identité .* ne répond pas comme attendu/,
    );

    // Another organization may not take the domain.
    const other = await t.createAccount({ organization: `Autre ${randomUUID()}` });
    const taken = await put(settings(), other.auth);
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json<{ message: string }>().message).toBe(
      `Le domaine « ${domain} » est déjà celui de l’authentification unique d’une autre organisation.`,
    );
  });

  it('is an admin’s alone, and never a key’s', async () => {
    const manager = await t.createAccount({ organization, name: 'Responsable' });
    await setRole(t, manager.id, 'manager');
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', settings()],
    ] as const) {
      const response = await call(manager.auth, method, '/api/organization/sso', body);
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json<{ message: string }>().message).toBe(
        'Seul un administrateur peut régler l’authentification unique de l’organisation.',
      );
    }
    const created = await call(admin.auth, 'POST', '/api/api-keys', { name: 'Clé de l’authentification unique', role: 'manager' });
    const key = created.json<CreatedApiKeyResponse>().apiKey.key;
    const byKey = await call({ authorization: `Bearer ${key}` }, 'GET', '/api/organization/sso');
    expect(byKey.statusCode, byKey.body).toBe(403);
  });

  it('is discovered by the domain alone', async () => {
    const discover = async (email: string) => {
      const response = await call(undefined, 'POST', '/api/auth/sso/discover', { email });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const known = await discover(`inconnue@${domain}`);
    expect(known).toEqual({ sso: { url: `/api/auth/sso/start?email=${encodeURIComponent(`inconnue@${domain}`)}` } });
    expect(await discover(`Quelqu.un@${domain.toUpperCase()}`)).toEqual({
      sso: { url: expect.stringMatching(/^\/api\/auth\/sso\/start\?email=/) },
    });
    expect(await discover(`personne@${otherDomain}`)).toEqual({ sso: null });
    const bad = await call(undefined, 'POST', '/api/auth/sso/discover', { email: 'pas une adresse' });
    expect(bad.statusCode).toBe(400);
    expect(sentence(bad)).toBe("L'adresse e-mail n'est pas valide.");
  });

  it('signs a new person in with the default role, through state, nonce and PKCE, and goes to the page first asked for', async () => {
    const email = `nouvelle-${randomUUID().slice(0, 6)}@${domain}`;
    idp.addPerson({ email, name: 'Nadia Nouvelle' });
    const { authorization, back, location } = await throughProvider(email, '/dashboard/alerts?site=1');
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(back.searchParams.get('code')).toBeTruthy();

    const fragment = codeOf(location);
    expect(fragment.get('next')).toBe('/dashboard/alerts?site=1');
    const exchanged = await exchange(fragment.get('code') ?? '');
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const user = await me(exchanged.json<{ accessToken: string }>().accessToken);
    expect(user).toMatchObject({ email, name: 'Nadia Nouvelle', role: 'viewer', organization: { id: admin.organizationId } });

    // The code serves once.
    const replayed = await exchange(fragment.get('code') ?? '');
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json<{ message: string }>().message).toBe(
      'Ce code de connexion n’est plus valable (il sert une fois, dans les 60 s) : recommencez la connexion.',
    );
    // So does the provider's answer: the same callback again is a state already used.
    const again = await call(undefined, 'GET', `${back.pathname}${back.search}`);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/login?sso=state');
  });

  it('gives a person new to Vigie the role of their groups claim', async () => {
    const email = `qualite-${randomUUID().slice(0, 6)}@${domain}`;
    idp.addPerson({ email, groups: ['Magasins', 'Qualité Siège'] });
    const { location } = await throughProvider(email);
    const fragment = codeOf(location);
    expect(fragment.get('next')).toBe('/dashboard');
    const exchanged = await exchange(fragment.get('code') ?? '');
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(await me(exchanged.json<{ accessToken: string }>().accessToken)).toMatchObject({ email, role: 'manager' });
  });

  it('refuses a wrong state, a code after 60 s, and signs no one in', async () => {
    const email = `tardive-${randomUUID().slice(0, 6)}@${domain}`;
    idp.addPerson({ email });
    const started = await call(undefined, 'GET', `/api/auth/sso/start?email=${encodeURIComponent(email)}`);
    const back = await idp.signIn(String(started.headers.location), email);
    const forged = new URLSearchParams(back.search);
    forged.set('state', 'un-etat-invente');
    const wrong = await call(undefined, 'GET', `${back.pathname}?${forged.toString()}`);
    expect(wrong.statusCode).toBe(302);
    expect(wrong.headers.location).toBe('/login?sso=state');
    const missing = await call(undefined, 'GET', back.pathname);
    expect(missing.headers.location).toBe('/login?sso=state');
    // No account was created by the refused answers.
    expect(await t.app.services.users.hasAccount(email)).toBe(false);

    const callback = await call(undefined, 'GET', `${back.pathname}${back.search}`);
    const code = codeOf(String(callback.headers.location)).get('code') ?? '';
    clock = new Date(clock.getTime() + 61_000);
    const late = await exchange(code);
    expect(late.statusCode).toBe(401);

    const bad = await call(undefined, 'POST', '/api/auth/sso/exchange', { code: '' });
    expect(bad.statusCode).toBe(400);
    expect(sentence(bad)).toBe('Le code est obligatoire.');
    const badNext = await call(
      undefined,
      'GET',
      `/api/auth/sso/start?email=${encodeURIComponent(email)}&next=${encodeURIComponent('//ailleurs.example')}`,
    );
    expect(badNext.statusCode).toBe(400);
    expect(sentence(badNext)).toBe('next doit être une page de ce site, comme « /dashboard ».');
    const noSso = await call(undefined, 'GET', `/api/auth/sso/start?email=${encodeURIComponent(`x@${otherDomain}`)}`);
    expect(noSso.statusCode).toBe(302);
    expect(noSso.headers.location).toBe('/login?sso=domain');
  });

  it('lets the provider speak for the addresses of its domains only, even of the organization’s own accounts', async () => {
    // The admin's address is not of the domain: the provider's word for it signs no one in.
    idp.addPerson({ email: admin.email });
    const started = await call(undefined, 'GET', `/api/auth/sso/start?email=${encodeURIComponent(`quelqu.un@${domain}`)}`);
    const back = await idp.signIn(String(started.headers.location), admin.email);
    const callback = await call(undefined, 'GET', `${back.pathname}${back.search}`);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/login?sso=account');
  });

  it('with enforced, refuses the password of that domain (403) and ends its password sessions', async () => {
    const password = `mot de passe ${randomUUID()}`;
    const email = `paul-${randomUUID().slice(0, 6)}@${domain}`;
    await t.app.services.users.createAccount({ email, password, organizationName: organization });
    const login = () => call(undefined, 'POST', '/api/auth/login', { email, password });
    const before = await login();
    expect(before.statusCode, before.body).toBe(200);
    const passwordSession = { authorization: `Bearer ${before.json<{ accessToken: string }>().accessToken}` };
    expect((await call(passwordSession, 'GET', '/api/user/me')).statusCode).toBe(200);
    // Paul signs in through single sign-on too: that session stays.
    idp.addPerson({ email });
    const { location } = await throughProvider(email);
    const viaSso = (await exchange(codeOf(location).get('code') ?? '')).json<{ accessToken: string }>().accessToken;
    // Someone of another domain keeps their password.
    const outsider = await t.createAccount({ organization });

    const enforced = await put({ ...settings(), clientSecret: undefined, enforced: true });
    expect(enforced.statusCode, enforced.body).toBe(200);
    expect(enforced.json<SsoSettingsResponse>().sso?.enforced).toBe(true);

    expect((await call(passwordSession, 'GET', '/api/user/me')).statusCode).toBe(401);
    expect((await me(viaSso)).email).toBe(email);
    expect((await call(outsider.auth, 'GET', '/api/user/me')).statusCode).toBe(200);
    expect((await call(admin.auth, 'GET', '/api/user/me')).statusCode).toBe(200);

    const refused = await login();
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(
      'Votre organisation exige l’authentification unique pour cette adresse : choisissez « Se connecter avec l’authentification unique ».',
    );
    // A wrong password is still only a wrong password: nothing said of the domain.
    expect((await call(undefined, 'POST', '/api/auth/login', { email, password: 'faux' })).statusCode).toBe(401);
    await put({ ...settings(), clientSecret: undefined, enforced: false });
    expect((await login()).statusCode).toBe(200);
  });

  it('refuses an issuer on loopback or a private network unless WEBHOOK_ALLOW_PRIVATE', async () => {
    const strict = await createTestApp({ env: { PUBLIC_URL } });
    try {
      const owner = await strict.createAccount();
      const response = await strict.app.inject({
        method: 'PUT',
        url: '/api/organization/sso',
        headers: owner.auth,
        payload: settings({ domains: [`prive-${randomUUID().slice(0, 8)}.test`] }),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(
        'Émetteur refusé : il mène à cette machine, à un réseau privé ou à une adresse réservée. Donnez l’adresse publique du fournisseur d’identité (l’opérateur peut l’autoriser avec WEBHOOK_ALLOW_PRIVATE=true).',
      );
    } finally {
      await strict.close();
    }
  });
});
