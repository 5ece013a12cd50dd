import type { Member, MemberResponse, MembersResponse } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '../../test/sse-client.ts';
import { body, createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';
import { setRole } from '../../test/test-dal.ts';

const LAST_ADMIN = 'L’organisation doit garder au moins un administrateur.';

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} : rien après ${ms} ms`)), ms))]);

describe(`members of an organization (${databaseKind})`, () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ baseUrl } = await t.listen());
  });
  afterAll(() => t.close());

  /** An organization with an admin and, optionally, more members logged in. */
  async function organization(...names: string[]) {
    const organization = `Org ${crypto.randomUUID()}`;
    const accounts: TestAccount[] = [];
    for (const name of names) accounts.push(await t.createAccount({ organization, name }));
    return accounts;
  }

  const list = async (account: TestAccount) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/members', headers: account.auth });
    expect(response.statusCode).toBe(200);
    return body<MembersResponse>(response).members;
  };
  /** The members as seen by the first of these accounts that is still signed in. */
  const listAsAnyOf = async (accounts: TestAccount[]) => {
    for (const account of accounts) {
      const response = await t.app.inject({ method: 'GET', url: '/api/members', headers: account.auth });
      if (response.statusCode === 200) return body<MembersResponse>(response).members;
    }
    throw new Error('plus aucun compte connecté');
  };
  const putRole = (account: TestAccount, id: string, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: `/api/members/${id}`, headers: account.auth, payload: payload as object });
  const remove = (account: TestAccount, id: string) => t.app.inject({ method: 'DELETE', url: `/api/members/${id}`, headers: account.auth });

  it('lists the members of the caller’s organization only, sorted by name, with their roles', async () => {
    const [zoe, adele] = await organization('Zoé Martin', 'Adèle Roux');
    await organization('Bruno Autre');
    if (!zoe || !adele) throw new Error('comptes');
    await setRole(t, adele.id, 'viewer');
    const members = await list(zoe);
    expect(members).toEqual<Member[]>([
      { id: adele.id, name: 'Adèle Roux', email: adele.email, role: 'viewer', scope: null },
      { id: zoe.id, name: 'Zoé Martin', email: zoe.email, role: 'admin', scope: null },
    ]);
    expect(await list(adele)).toEqual(members);
  });

  it('changes a role, which applies from the next request', async () => {
    const [admin, other] = await organization('Admin', 'Bea');
    if (!admin || !other) throw new Error('comptes');
    const response = await putRole(admin, other.id, { role: 'manager' });
    expect(response.statusCode).toBe(200);
    expect(body<MemberResponse>(response).member).toEqual({ id: other.id, name: 'Bea', email: other.email, role: 'manager', scope: null });
    const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: other.auth });
    expect(me.json<{ user: { role: string } }>().user.role).toBe('manager');
  });

  it('never demotes nor removes the last admin (409), and lets one go when another admin stays', async () => {
    const [admin, other] = await organization('Admin', 'Bea');
    if (!admin || !other) throw new Error('comptes');
    await setRole(t, other.id, 'viewer');
    for (const response of [await putRole(admin, admin.id, { role: 'manager' }), await remove(admin, admin.id)]) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: LAST_ADMIN });
    }
    expect((await list(admin)).find((member) => member.id === admin.id)?.role).toBe('admin');
    // Keeping the role of the last admin is no demotion.
    expect((await putRole(admin, admin.id, { role: 'admin' })).statusCode).toBe(200);

    expect((await putRole(admin, other.id, { role: 'admin' })).statusCode).toBe(200);
    expect((await putRole(other, admin.id, { role: 'viewer' })).statusCode).toBe(200);
    expect((await remove(other, other.id)).statusCode).toBe(409);
  });

  it('keeps an admin when two admins demote or remove each other at the same time', async () => {
    for (const action of ['demote', 'remove'] as const) {
      for (let round = 0; round < 3; round += 1) {
        const [first, second] = await organization('Premier', 'Second');
        if (!first || !second) throw new Error('comptes');
        const responses = await Promise.all(
          action === 'demote'
            ? [putRole(first, second.id, { role: 'viewer' }), putRole(second, first.id, { role: 'viewer' })]
            : [remove(first, second.id), remove(second, first.id)],
        );
        const codes = responses.map((response) => response.statusCode).sort();
        // The second change sees the first: refused because it would leave no admin (409), because
        // its author is no longer an admin (403), or because its author no longer exists (401).
        expect(codes[0], action).toBe(action === 'demote' ? 200 : 204);
        expect([401, 403, 409], action).toContain(codes[1]);
        const admins = (await listAsAnyOf([first, second])).filter((member) => member.role === 'admin');
        expect(admins, action).toHaveLength(1);
      }
    }
  });

  it('removes a member: their tokens are refused at once and their live stream closes', async () => {
    const [admin, member] = await organization('Admin', 'Partant');
    if (!admin || !member) throw new Error('comptes');
    const stream = await openStream(baseUrl, member.token);
    expect(stream.response.status).toBe(200);

    const response = await remove(admin, member.id);
    expect(response.statusCode).toBe(204);
    const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: member.auth });
    expect(me.statusCode).toBe(401);
    await within(stream.ended, 5000, 'le flux direct du membre retiré reste ouvert');
    expect((await list(admin)).map((m) => m.id)).toEqual([admin.id]);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: member.email, password: member.password },
    });
    expect(login.statusCode).toBe(401);
    expect((await remove(admin, member.id)).statusCode).toBe(404);
  });

  it('answers 404 for a member of another organization, and changes nothing there', async () => {
    const [admin] = await organization('Admin');
    const [stranger, strangerViewer] = await organization('Étranger', 'Lecteur étranger');
    if (!admin || !stranger || !strangerViewer) throw new Error('comptes');
    await setRole(t, strangerViewer.id, 'viewer');
    for (const response of [await putRole(admin, strangerViewer.id, { role: 'admin' }), await remove(admin, strangerViewer.id)]) {
      expect(response.statusCode).toBe(404);
      expect(response.json<{ message: string }>().message).toBe('Ce membre n’existe pas dans votre organisation.');
    }
    expect((await list(stranger)).map((m) => [m.id, m.role])).toEqual([
      [strangerViewer.id, 'viewer'],
      [stranger.id, 'admin'],
    ]);
  });

  it('refuses bad input with a French 400 and changes nothing', async () => {
    const [admin, other] = await organization('Admin', 'Bea');
    if (!admin || !other) throw new Error('comptes');
    for (const payload of [{ role: 'owner' }, { role: 'viewer', extra: 1 }, {}, { role: 'view\u0000er' }, { role: '\ud800' }]) {
      const response = await putRole(admin, other.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/[éèàêôûç«’']|\b(le|la|les|est|doit)\b/i);
    }
    expect((await putRole(admin, 'pas-un-id', { role: 'viewer' })).statusCode).toBe(400);
    expect((await remove(admin, 'pas-un-id')).statusCode).toBe(400);
    expect((await list(admin)).every((member) => member.role === 'admin')).toBe(true);
  });

  it('sends alert e-mails to admins and managers, not to viewers', async () => {
    const [admin, manager, viewer] = await organization('Admin', 'Responsable', 'Lecteur');
    if (!admin || !manager || !viewer) throw new Error('comptes');
    await setRole(t, manager.id, 'manager');
    await setRole(t, viewer.id, 'viewer');
    expect((await t.app.services.users.teamEmails(admin.organizationId)).sort()).toEqual([admin.email, manager.email].sort());
  });

  it('requires a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/members' })).statusCode).toBe(401);
  });
});
