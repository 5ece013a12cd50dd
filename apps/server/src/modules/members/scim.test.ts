import { createHash, randomUUID } from 'node:crypto';
import type { AuditEvent, CreatedApiKeyResponse, Member, ScimListResponse, ScimTokenResponse, ScimUser } from '@vigie/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../../test/oidc-provider.ts';
import { openStream } from '../../test/sse-client.ts';
import { setRole, storedScimTokens } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, databaseUrl, type TestAccount, type TestApp } from '../../test/test-app.ts';

const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';
const ENTERPRISE_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** docs/api.md, Provisionnement SCIM: what Microsoft Entra ID calls to provision and deprovision the members of an organization. */
describe(`SCIM 2.0 provisioning (${databaseKind})`, () => {
  let t: TestApp;
  let baseUrl: string;
  let admin: TestAccount;
  let manager: TestAccount;
  let other: TestAccount;
  let token: string;
  let otherToken: string;
  let idp: TestOidcProvider;
  const domain = `${randomUUID().slice(0, 8)}.example.fr`;

  const createToken = async (who: TestAccount) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/organization/scim-token', headers: who.auth });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ScimTokenResponse>().token;
  };
  /** A SCIM call as Entra ID makes it: `application/scim+json`, the bearer token. */
  const scim = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    with_: string | null = token,
  ): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url: `/api/scim/v2${url}`,
      headers: {
        ...(with_ === null ? {} : { authorization: `Bearer ${with_}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json; charset=utf-8' }),
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const filterBy = (email: string, with_ = token) =>
    scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`, undefined, with_);
  /** The body of a user Entra ID creates, with what it sends beyond what Vigie keeps. */
  const entraUser = (email: string, displayName: string) => ({
    schemas: [USER_URN, ENTERPRISE_URN],
    externalId: email.split('@')[0],
    userName: email,
    active: true,
    displayName,
    emails: [{ primary: true, type: 'work', value: email }],
    meta: { resourceType: 'User' },
    name: { formatted: displayName, familyName: displayName.split(' ')[1], givenName: displayName.split(' ')[0] },
    title: 'Responsable qualité',
    [ENTERPRISE_URN]: { department: 'Qualité' },
  });
  const created = async (email: string, displayName = 'Camille Martin') => {
    const response = await scim('POST', '/Users', entraUser(email, displayName));
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ScimUser>();
  };
  const members = async (who: TestAccount = admin) =>
    (await t.app.inject({ url: '/api/members', headers: who.auth })).json<{ members: Member[] }>().members;
  const scimError = (response: LightMyRequestResponse, status: number, scimType?: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
    const body = response.json<{ schemas: string[]; status: string; scimType?: string; detail: string }>();
    expect(body.schemas).toEqual([ERROR_URN]);
    expect(body.status).toBe(String(status));
    if (scimType) expect(body.scimType).toBe(scimType);
    return body.detail;
  };
  const trail = async (action: string) =>
    (await t.app.inject({ url: `/api/audit?action=${action}`, headers: admin.auth })).json<{ events: AuditEvent[] }>().events;

  beforeAll(async () => {
    // The single sign-on settings name an identity provider on loopback (a real one, see sso.test.ts).
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    idp = await startOidcProvider(`${t.config.publicUrl}/api/auth/sso/callback`);
    ({ baseUrl } = await t.listen());
    const organization = `Chaîne ${randomUUID()}`;
    admin = await t.createAccount({ organization, name: 'Directrice' });
    manager = await t.createAccount({ organization, name: 'Responsable' });
    await setRole(t, manager.id, 'manager');
    other = await t.createAccount({ organization: `Autre ${randomUUID()}`, name: 'Voisine' });
    token = await createToken(admin);
    otherToken = await createToken(other);
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('gives an admin a token shown once, stored as its SHA-256 only, that a new one replaces (the old one: 401)', async () => {
    expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    const rows = await storedScimTokens(t, admin.organizationId);
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex'), prefix: token.slice(0, 13) }]);
    expect((await scim('GET', '/Users')).statusCode).toBe(200);

    const replacement = await createToken(admin);
    expect(replacement).not.toBe(token);
    const old = await scim('GET', '/Users', undefined, token);
    expect(scimError(old, 401)).toBe('Jeton SCIM invalide ou remplacé : recopiez le jeton créé dans Équipe, « Provisionnement SCIM ».');
    expect((await scim('GET', '/Users', undefined, replacement)).statusCode).toBe(200);
    token = replacement;
    const [event] = await trail('scim.token_created');
    expect(event).toMatchObject({
      actor: { id: admin.id },
      subject: { type: 'organization', id: admin.organizationId },
      details: { replaced: true },
    });
    expect(JSON.stringify(event)).not.toContain(replacement);
  });

  it('refuses the token to a manager (403) and to an API key, whatever its role (403)', async () => {
    const refused = await t.app.inject({ method: 'POST', url: '/api/organization/scim-token', headers: manager.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe('Seul un administrateur peut gérer le provisionnement SCIM.');
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: admin.auth,
      payload: { name: 'Intégrateur', role: 'manager' },
    });
    const apiKey = key.json<CreatedApiKeyResponse>().apiKey.key;
    const byKey = await t.app.inject({
      method: 'POST',
      url: '/api/organization/scim-token',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json<{ message: string }>().message).toMatch(/^Une clé d’API ne peut pas/);
    // The token in force is still the one made above.
    expect((await scim('GET', '/Users')).statusCode).toBe(200);
  });

  it('refuses a missing or wrong token (401, as a SCIM error), and a session or an API key are no SCIM token', async () => {
    expect(scimError(await scim('GET', '/Users', undefined, null), 401)).toMatch(/^Jeton SCIM manquant/);
    expect(scimError(await scim('GET', '/Users', undefined, `scim_${'A'.repeat(43)}`), 401)).toMatch(/^Jeton SCIM invalide/);
    expect(scimError(await scim('GET', '/Users', undefined, 'pas-un-jeton'), 401)).toMatch(/^Jeton SCIM invalide/);
    expect(scimError(await scim('GET', '/Users', undefined, admin.token), 401)).toMatch(/^Jeton SCIM invalide/);
    expect(scimError(await scim('GET', '/ServiceProviderConfig', undefined, null), 401)).toMatch(/^Jeton SCIM manquant/);
  });

  it('slows down an address that sends wrong tokens: 20 per quarter of an hour, then 429 even with the right one', async () => {
    const from = (bearer: string) =>
      t.app.inject({ url: '/api/scim/v2/Users', headers: { authorization: `Bearer ${bearer}` }, remoteAddress: '203.0.113.77' });
    for (let attempt = 0; attempt < 20; attempt += 1) expect((await from(`scim_${'B'.repeat(43)}`)).statusCode).toBe(401);
    const refused = await from(token);
    expect(scimError(refused, 429)).toMatch(/^Trop de jetons SCIM invalides\. Réessayez dans \d+ min\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back by it.
    expect((await scim('GET', '/Users')).statusCode).toBe(200);
  });

  it('replays Entra ID: filter (none) → create → filter (found) → PATCH active "False": session and live stream end, no longer a member', async () => {
    const email = `camille.martin@${domain}`;
    // Entra ID asks first whether the person exists.
    const none = await filterBy(email);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(none.json()).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });

    const response = await scim('POST', '/Users', entraUser(email, 'Camille Martin'));
    expect(response.statusCode, response.body).toBe(201);
    const user = response.json<ScimUser>();
    expect(user).toEqual({
      schemas: [USER_URN],
      id: expect.any(String),
      userName: email,
      name: { formatted: 'Camille Martin' },
      displayName: 'Camille Martin',
      emails: [{ value: email, type: 'work', primary: true }],
      active: true,
      meta: {
        resourceType: 'User',
        created: expect.any(String),
        lastModified: expect.any(String),
        location: `${t.config.publicUrl}/api/scim/v2/Users/${user.id}`,
      },
    });
    expect(response.headers['location']).toBe(user.meta.location);
    // A member of the organization, of the default role (no single sign-on settings: viewer).
    expect((await members()).find((member) => member.id === user.id)).toMatchObject({
      email,
      name: 'Camille Martin',
      role: 'viewer',
      scope: null,
    });
    // She has no password anyone knows: sign-in with one fails.
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'motdepasse-au-hasard' } });
    expect(login.statusCode).toBe(401);

    const found = await filterBy(email.toUpperCase());
    expect(found.json<ScimListResponse>()).toMatchObject({
      totalResults: 1,
      itemsPerPage: 1,
      Resources: [{ id: user.id, userName: email }],
    });
    expect((await scim('GET', `/Users/${user.id}`)).json<ScimUser>()).toEqual(user);

    // She signs in (as single sign-on would open her session) and follows the live stream.
    const session = await t.app.services.modules.auth.signIn(user.id);
    expect((await t.app.inject({ url: '/api/user/me', headers: { authorization: `Bearer ${session}` } })).statusCode).toBe(200);
    const stream = await openStream(baseUrl, session);
    expect(stream.response.status).toBe(200);

    const patched = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_URN],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<ScimUser>()).toMatchObject({ id: user.id, userName: email, active: false });
    await stream.ended;
    expect((await t.app.inject({ url: '/api/user/me', headers: { authorization: `Bearer ${session}` } })).statusCode).toBe(401);
    expect((await members()).map((member) => member.id)).not.toContain(user.id);
    expect((await filterBy(email)).json<ScimListResponse>().totalResults).toBe(0);
    expect(scimError(await scim('GET', `/Users/${user.id}`), 404)).toBe('Utilisateur introuvable dans l’organisation.');

    // The audit trail names the identity provider, by its token.
    const [added] = await trail('member.provisioned');
    expect(added).toMatchObject({
      actor: { name: 'Provisionnement SCIM', email: token.slice(0, 13) },
      subject: { type: 'member', id: user.id, name: 'Camille Martin' },
      details: { email, role: 'viewer' },
    });
    const [removed] = await trail('member.deprovisioned');
    expect(removed).toMatchObject({ actor: { name: 'Provisionnement SCIM' }, subject: { type: 'member', id: user.id } });
  });

  it('deprovisions by a PATCH without path ({"active": false}) and by DELETE (204, then 404)', async () => {
    const first = await created(`dominique@${domain}`, 'Dominique Leroy');
    const patched = await scim('PATCH', `/Users/${first.id}`, {
      schemas: [PATCH_URN],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<ScimUser>().active).toBe(false);
    expect((await members()).map((member) => member.id)).not.toContain(first.id);

    const second = await created(`eloise@${domain}`, 'Éloïse Petit');
    const deleted = await scim('DELETE', `/Users/${second.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await members()).map((member) => member.id)).not.toContain(second.id);
    scimError(await scim('DELETE', `/Users/${second.id}`), 404);
  });

  it('changes a name or an address by PATCH and PUT; ignores attributes Vigie does not keep', async () => {
    const user = await created(`francois@${domain}`, 'François Roux');
    const renamed = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_URN],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'François Roux-Dupont' },
        { op: 'Add', path: 'title', value: 'Chef de rayon' },
        { op: 'Replace', path: `${ENTERPRISE_URN}:department`, value: 'Frais' },
        { op: 'Replace', path: 'active', value: 'True' },
      ],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<ScimUser>()).toMatchObject({ displayName: 'François Roux-Dupont', active: true });
    const [event] = await trail('member.scim_updated');
    expect(event).toMatchObject({ subject: { id: user.id }, details: { changed: ['name'] } });

    const moved = `f.roux@${domain}`;
    const replaced = await scim('PUT', `/Users/${user.id}`, { ...entraUser(moved, 'François Roux'), id: user.id });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<ScimUser>()).toMatchObject({ id: user.id, userName: moved, displayName: 'François Roux' });
    expect((await members()).find((member) => member.id === user.id)).toMatchObject({ email: moved, name: 'François Roux' });
    // An address another account has is refused.
    const taken = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_URN],
      Operations: [{ op: 'replace', path: 'userName', value: manager.email }],
    });
    expect(scimError(taken, 409, 'uniqueness')).toBe(`${manager.email} est déjà membre de l’organisation.`);
  });

  it('refuses an address already a member, or with an account in another organization (409 uniqueness)', async () => {
    const before = (await members()).length;
    expect(scimError(await scim('POST', '/Users', entraUser(admin.email, 'Directrice')), 409, 'uniqueness')).toBe(
      `${admin.email} est déjà membre de l’organisation.`,
    );
    expect(scimError(await scim('POST', '/Users', entraUser(other.email, 'Voisine')), 409, 'uniqueness')).toMatch(
      /a déjà un compte dans une autre organisation Vigie/,
    );
    expect((await members()).length).toBe(before);
  });

  it('creates a person at the default role of the organization’s single sign-on settings', async () => {
    const settings = {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      domains: [domain],
      defaultRole: 'manager',
      enforced: false,
    };
    const saved = await t.app.inject({ method: 'PUT', url: '/api/organization/sso', headers: admin.auth, payload: settings });
    expect(saved.statusCode, saved.body).toBe(200);
    const user = await created(`helene@${domain}`, 'Hélène Blanc');
    expect((await members()).find((member) => member.id === user.id)?.role).toBe('manager');
    const [event] = await trail('member.provisioned');
    expect(event).toMatchObject({ subject: { id: user.id }, details: { role: 'manager' } });
    // Another organization, without settings of its own, still gives viewer.
    const theirs = await scim('POST', '/Users', entraUser(`ines@autre-${domain}`, 'Inès Faure'), otherToken);
    expect(theirs.statusCode, theirs.body).toBe(201);
    const [their] = (await t.app.inject({ url: '/api/members', headers: other.auth }))
      .json<{ members: Member[] }>()
      .members.filter((member) => member.email === `ines@autre-${domain}`);
    expect(their?.role).toBe('viewer');
  });

  it('pages the list (startIndex, count) over every member of the organization', async () => {
    const everyone = await members();
    const all = (await scim('GET', '/Users')).json<ScimListResponse>();
    expect(all.totalResults).toBe(everyone.length);
    expect(all.Resources.map((resource) => resource['userName']).sort()).toEqual(everyone.map((member) => member.email).sort());
    const page = (await scim('GET', '/Users?startIndex=2&count=1')).json<ScimListResponse>();
    expect(page).toMatchObject({ totalResults: everyone.length, startIndex: 2, itemsPerPage: 1 });
    expect(page.Resources[0]?.['id']).toBe(all.Resources[1]?.['id']);
    expect((await scim('GET', '/Users?count=0')).json<ScimListResponse>()).toMatchObject({
      totalResults: everyone.length,
      itemsPerPage: 0,
      Resources: [],
    });
    const byId = (await scim('GET', `/Users?filter=${encodeURIComponent(`id eq "${admin.id}"`)}`)).json<ScimListResponse>();
    expect(byId.Resources.map((resource) => resource['id'])).toEqual([admin.id]);
  });

  it('keeps each organization to its own users: another token neither sees nor changes them', async () => {
    const user = await created(`gaelle@${domain}`, 'Gaëlle Morel');
    const theirs = (await scim('GET', '/Users?count=200', undefined, otherToken)).json<ScimListResponse>();
    const theirIds = theirs.Resources.map((resource) => resource['id']);
    expect(theirIds).toContain(other.id);
    for (const ours of [user.id, admin.id, manager.id]) expect(theirIds).not.toContain(ours);
    expect((await filterBy(user.userName, otherToken)).json<ScimListResponse>().totalResults).toBe(0);
    scimError(await scim('GET', `/Users/${user.id}`, undefined, otherToken), 404);
    const patch = { schemas: [PATCH_URN], Operations: [{ op: 'replace', path: 'active', value: false }] };
    scimError(await scim('PATCH', `/Users/${user.id}`, patch, otherToken), 404);
    scimError(await scim('DELETE', `/Users/${user.id}`, undefined, otherToken), 404);
    scimError(await scim('GET', `/Users/${admin.id}`, undefined, otherToken), 404);
    expect((await members()).map((member) => member.id)).toContain(user.id);
  });

  it('answers bad bodies and queries with a SCIM error in French, storing nothing', async () => {
    const before = await members();
    const cases: [unknown, number, string, RegExp | string][] = [
      [
        { schemas: [USER_URN], displayName: 'Sans adresse' },
        400,
        'invalidValue',
        '« userName » est obligatoire : c’est l’adresse e-mail du membre.',
      ],
      [{ schemas: [USER_URN], userName: 'pas-une-adresse' }, 400, 'invalidValue', "« userName » : L'adresse e-mail n'est pas valide."],
      [{ schemas: [USER_URN], userName: 42 }, 400, 'invalidValue', /^« userName » doit être l’adresse e-mail/],
      [{ schemas: ['urn:autre'], userName: `h@${domain}` }, 400, 'invalidSyntax', /^« schemas » doit contenir/],
      [{ schemas: [USER_URN], userName: `h@${domain}`, active: 'peut-être' }, 400, 'invalidValue', '« active » doit valoir true ou false.'],
      [{ schemas: [USER_URN], userName: `h@${domain}`, active: false }, 400, 'invalidValue', /^Un utilisateur inactif n’est pas créé/],
      [{ schemas: [USER_URN], userName: `h@${domain}`, displayName: 'x'.repeat(500) }, 400, 'invalidValue', /^« displayName » : /],
      [[{ userName: `h@${domain}` }], 400, 'invalidSyntax', /^Le corps de la requête doit être une ressource User SCIM/],
      ['{"userName": ', 400, 'invalidSyntax', "Le corps de la requête n'est pas un JSON valide."],
    ];
    for (const [body, status, scimType, detail] of cases) {
      const detailText = scimError(await scim('POST', '/Users', body), status, scimType);
      if (typeof detail === 'string') expect(detailText).toBe(detail);
      else expect(detailText).toMatch(detail);
    }
    const target = before.find((member) => member.id === manager.id);
    const patches: [unknown, string, RegExp | string][] = [
      [
        { schemas: [PATCH_URN], Operations: [{ op: 'Destroy', path: 'active' }] },
        'invalidSyntax',
        'Opération inconnue « Destroy » : add, replace ou remove est attendu.',
      ],
      [{ schemas: [PATCH_URN], Operations: [] }, 'invalidSyntax', /^« Operations » est obligatoire/],
      [
        { schemas: [PATCH_URN], Operations: [{ op: 'replace', path: 'active', value: 'Non' }] },
        'invalidValue',
        '« active » doit valoir true ou false.',
      ],
      [{ schemas: [PATCH_URN], Operations: [{ op: 'remove' }] }, 'noTarget', 'Une opération remove demande un « path ».'],
      [{ schemas: [PATCH_URN], Operations: [{ op: 'replace', value: 'False' }] }, 'invalidValue', /^Sans « path »/],
      // The second operation is wrong: the first (removing the member) is not applied either.
      [
        {
          schemas: [PATCH_URN],
          Operations: [
            { op: 'replace', path: 'active', value: false },
            { op: 'replace', path: 'userName', value: 'non' },
          ],
        },
        'invalidValue',
        /^« userName » : /,
      ],
    ];
    for (const [body, scimType, detail] of patches) {
      const detailText = scimError(await scim('PATCH', `/Users/${manager.id}`, body), 400, scimType);
      if (typeof detail === 'string') expect(detailText).toBe(detail);
      else expect(detailText).toMatch(detail);
    }
    expect(scimError(await scim('GET', `/Users?filter=${encodeURIComponent('displayName co "a"')}`), 400, 'invalidFilter')).toMatch(
      /^Filtre non pris en charge/,
    );
    expect(scimError(await scim('GET', '/Users?startIndex=premier'), 400, 'invalidValue')).toBe(
      '« startIndex » doit être un nombre entier.',
    );
    scimError(await scim('GET', '/Users/pas-un-uuid'), 404);
    expect(await members()).toEqual(before);
    expect(target).toBeDefined();
  });

  it('answers the discovery documents Entra ID reads (ServiceProviderConfig, ResourceTypes, Schemas)', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.statusCode, config.body).toBe(200);
    expect(config.json()).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      bulk: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken' }],
    });
    const types = (await scim('GET', '/ResourceTypes')).json<ScimListResponse>();
    expect(types).toMatchObject({ totalResults: 1, Resources: [{ id: 'User', endpoint: '/Users', schema: USER_URN }] });
    const schemas = (await scim('GET', '/Schemas')).json<ScimListResponse>();
    expect(schemas).toMatchObject({ totalResults: 1, Resources: [{ id: USER_URN }] });
    expect(JSON.stringify(schemas)).toContain('"name":"userName"');
  });
});

/** A member deprovisioned through one instance is signed out at once on another, which held their session and stream. */
describe.runIf(databaseUrl)('SCIM deprovisioning on two instances (PostgreSQL)', { timeout: 120_000 }, () => {
  let a: TestApp;
  let b: TestApp;
  let admin: TestAccount;

  beforeAll(async () => {
    a = await createTestApp({ applicationName: `vigie-scim-a-${process.pid}` });
    b = await createTestApp({ applicationName: `vigie-scim-b-${process.pid}` });
    admin = await a.createAccount({ organization: `Chaîne ${randomUUID()}` });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('ends on instance B the session and the live stream of a person deactivated through instance A', async () => {
    await expect.poll(() => a.database.pubsub.live() && b.database.pubsub.live()).toBe(true);
    const { baseUrl } = await b.listen();
    const created = await a.app.inject({ method: 'POST', url: '/api/organization/scim-token', headers: admin.auth });
    const auth = { authorization: `Bearer ${created.json<ScimTokenResponse>().token}`, 'content-type': 'application/scim+json' };
    const email = `partout-${randomUUID().slice(0, 8)}@example.fr`;
    const user = (
      await a.app.inject({
        method: 'POST',
        url: '/api/scim/v2/Users',
        headers: auth,
        payload: JSON.stringify({ schemas: [USER_URN], userName: email }),
      })
    ).json<ScimUser>();
    const session = await b.app.services.modules.auth.signIn(user.id);
    const bearer = { authorization: `Bearer ${session}` };
    // B keeps the account and its session in memory.
    expect((await b.app.inject({ url: '/api/user/me', headers: bearer })).statusCode).toBe(200);
    const stream = await openStream(baseUrl, session);
    expect(stream.response.status).toBe(200);

    const patched = await a.app.inject({
      method: 'PATCH',
      url: `/api/scim/v2/Users/${user.id}`,
      headers: auth,
      payload: JSON.stringify({ schemas: [PATCH_URN], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] }),
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Answered once the announcement was heard back: B refuses the session from the very next request.
    expect((await b.app.inject({ url: '/api/user/me', headers: bearer })).statusCode).toBe(401);
    await stream.ended;
  });
});
