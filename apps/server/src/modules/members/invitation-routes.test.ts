import type { InvitationPreviewResponse, InvitationResponse, InvitationsResponse, MembersResponse } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRENCH, mailingTestApp } from '../../test/mailing-test-app.ts';
import { body, createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const PUBLIC_URL = 'https://vigie.example.fr';
const UNUSABLE = 'Cette invitation n’existe pas ou a déjà servi.';
const EXPIRED = 'Cette invitation a expiré : demandez-en une nouvelle à votre administrateur.';
const PASSWORD = 'un mot de passe assez long';

describe(`invitations through a real SMTP server (${databaseKind})`, () => {
  const mailing = mailingTestApp({
    publicUrl: PUBLIC_URL,
    mailFrom: 'Vigie <invitations@vigie.test>',
    start: new Date('2026-03-02T09:00:00Z'),
  });
  const { linkFor: linkTo } = mailing;
  const linkFor = (email: string, count = 1) => linkTo(email, 'invitation', count);

  const invite = (admin: TestAccount, payload: unknown) =>
    mailing.t.app.inject({ method: 'POST', url: '/api/invitations', headers: admin.auth, payload: payload as object });
  const preview = (token: string) => mailing.t.app.inject({ method: 'POST', url: '/api/invitations/preview', payload: { token } });
  const accept = (token: string, name = 'Nina Nouvelle') =>
    mailing.t.app.inject({ method: 'POST', url: '/api/invitations/accept', payload: { token, name, password: PASSWORD } });
  const pending = async (admin: TestAccount) =>
    body<InvitationsResponse>(await mailing.t.app.inject({ method: 'GET', url: '/api/invitations', headers: admin.auth })).invitations;

  const newAddress = () => `invite-${crypto.randomUUID()}@example.fr`;

  it('says in the e-mail which shops and regions the person will see', async () => {
    const admin = await mailing.t.createAccount({ organization: `Chaîne ${crypto.randomUUID()}`, name: 'Camille Admin' });
    const call = (method: 'POST' | 'GET', url: string, payload?: object) =>
      mailing.t.app.inject({ method, url, headers: admin.auth, ...(payload ? { payload } : {}) });
    const site = body<{ site: { id: string } }>(await call('POST', '/api/sites', { name: 'Lyon Part-Dieu' })).site;
    const region = body<{ region: { id: string } }>(await call('POST', '/api/regions', { name: 'Nord' })).region;
    const email = newAddress();
    expect((await invite(admin, { email, role: 'viewer', scope: { siteIds: [site.id], regionIds: [region.id] } })).statusCode).toBe(201);
    const { mail } = await linkFor(email);
    expect(mail.text).toContain('Accès\u202F: Lyon Part-Dieu, région Nord.');
  });

  it('e-mails a link that previews, creates the account once with its role, and signs in', async () => {
    const admin = await mailing.t.createAccount({ organization: 'Boulangerie Dupain', name: 'Camille Admin' });
    const email = newAddress();
    const created = await invite(admin, { email, role: 'manager' });
    expect(created.statusCode).toBe(201);
    const { invitation, emailSent } = body<InvitationResponse>(created);
    expect(emailSent).toBe(true);
    // E-mailed, the link is not given back: only the person invited receives it.
    expect(body<InvitationResponse>(created).link).toBeUndefined();
    expect(invitation).toEqual({ id: expect.any(String), email, role: 'manager', scope: null, expiresAt: '2026-03-09T09:00:00.000Z' });
    expect(await pending(admin)).toEqual([invitation]);

    const { mail, token } = await linkFor(email);
    expect(mail.subject).toBe('Invitation à rejoindre Boulangerie Dupain sur Vigie');
    expect(mail.text).toContain('Camille Admin vous invite');
    expect(mail.text).toContain('Responsable');
    expect(mail.text).toContain('9 mars 2026');
    expect(mail.text).toContain('Accès\u202F: toute l’organisation.');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash of the secret is kept: the outbox forgets the text once sent.
    const sent = await mailing.sentRow(admin.organizationId, email);
    expect(sent.status).toBe('sent');
    expect(JSON.stringify(sent.payload)).not.toContain(token);

    const seen = await preview(token);
    expect(seen.statusCode).toBe(200);
    expect(body<InvitationPreviewResponse>(seen).invitation).toEqual({
      email,
      role: 'manager',
      organization: { name: 'Boulangerie Dupain' },
      expiresAt: '2026-03-09T09:00:00.000Z',
    });

    const accepted = await accept(token);
    expect(accepted.statusCode).toBe(201);
    expect(accepted.headers['cache-control']).toBe('no-store');
    const accessToken = accepted.json<{ accessToken: string }>().accessToken;
    const me = await mailing.t.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${accessToken}` } });
    expect(me.json()).toMatchObject({
      user: { email, name: 'Nina Nouvelle', role: 'manager', organization: { id: admin.organizationId } },
    });

    const login = await mailing.t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } });
    expect(login.statusCode).toBe(200);
    const members = body<MembersResponse>(await mailing.t.app.inject({ method: 'GET', url: '/api/members', headers: admin.auth })).members;
    expect(members.find((member) => member.email === email)?.role).toBe('manager');
    expect(await pending(admin)).toEqual([]);

    // The link works once.
    for (const again of [await accept(token), await preview(token)]) {
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ message: UNUSABLE });
    }
    // The address has an account now: no new invitation for it.
    const taken = await invite(admin, { email: email.toUpperCase(), role: 'viewer' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<{ message: string }>().message).toMatch(/Un compte existe déjà/);
  });

  it('accepts a link once when it is used twice at the same time', async () => {
    const admin = await mailing.t.createAccount();
    const email = newAddress();
    expect((await invite(admin, { email, role: 'viewer' })).statusCode).toBe(201);
    const { token } = await linkFor(email);
    const codes = (await Promise.all([accept(token, 'Un'), accept(token, 'Deux')])).map((response) => response.statusCode).sort();
    expect(codes).toEqual([201, 404]);
    const members = body<MembersResponse>(await mailing.t.app.inject({ method: 'GET', url: '/api/members', headers: admin.auth })).members;
    expect(members.filter((member) => member.email === email)).toHaveLength(1);
  });

  it('answers 410 for an expired link, which can be sent again with a fresh one', async () => {
    const admin = await mailing.t.createAccount();
    const email = newAddress();
    const { invitation } = body<InvitationResponse>(await invite(admin, { email, role: 'viewer' }));
    const { token } = await linkFor(email);
    const start = mailing.clock;
    mailing.clock = new Date(start.getTime() + 7 * 24 * 3600_000 + 1000);
    try {
      for (const response of [await preview(token), await accept(token)]) {
        expect(response.statusCode).toBe(410);
        expect(response.json()).toEqual({ message: EXPIRED });
      }
      // Still listed, so that it can be sent again.
      expect((await pending(admin)).map((pendingOne) => pendingOne.id)).toEqual([invitation.id]);
      const resent = await mailing.t.app.inject({ method: 'POST', url: `/api/invitations/${invitation.id}/resend`, headers: admin.auth });
      expect(resent.statusCode).toBe(200);
      expect(body<InvitationResponse>(resent).invitation).toEqual({
        ...invitation,
        expiresAt: new Date(mailing.clock.getTime() + 7 * 24 * 3600_000).toISOString(),
      });
      const fresh = await linkFor(email, 2);
      expect(fresh.token).not.toBe(token);
      expect((await preview(token)).statusCode).toBe(404);
      expect((await preview(fresh.token)).statusCode).toBe(200);
      expect((await accept(fresh.token)).statusCode).toBe(201);
    } finally {
      mailing.clock = start;
    }
  });

  it('kills the old link on resend, on a new invitation of the same address, and on revoke', async () => {
    const admin = await mailing.t.createAccount();
    const email = newAddress();
    const first = body<InvitationResponse>(await invite(admin, { email, role: 'viewer' })).invitation;
    const link1 = await linkFor(email, 1);

    const resent = await mailing.t.app.inject({ method: 'POST', url: `/api/invitations/${first.id}/resend`, headers: admin.auth });
    expect(resent.statusCode).toBe(200);
    const link2 = await linkFor(email, 2);
    expect((await preview(link1.token)).statusCode).toBe(404);
    expect((await preview(link2.token)).statusCode).toBe(200);

    // A new invitation of the same address replaces the pending one.
    const second = body<InvitationResponse>(await invite(admin, { email: email.toUpperCase(), role: 'admin' })).invitation;
    const link3 = await linkFor(email, 3);
    expect((await preview(link2.token)).statusCode).toBe(404);
    expect(body<InvitationPreviewResponse>(await preview(link3.token)).invitation.role).toBe('admin');
    expect((await pending(admin)).map((invitation) => invitation.id)).toEqual([second.id]);

    const revoked = await mailing.t.app.inject({ method: 'DELETE', url: `/api/invitations/${second.id}`, headers: admin.auth });
    expect(revoked.statusCode).toBe(204);
    expect((await preview(link3.token)).statusCode).toBe(404);
    expect((await accept(link3.token)).statusCode).toBe(404);
    expect(await pending(admin)).toEqual([]);
    expect((await mailing.t.app.inject({ method: 'DELETE', url: `/api/invitations/${second.id}`, headers: admin.auth })).statusCode).toBe(
      404,
    );
  });

  it('keeps each organization’s invitations to itself (404)', async () => {
    const admin = await mailing.t.createAccount();
    const stranger = await mailing.t.createAccount();
    const email = newAddress();
    const { invitation } = body<InvitationResponse>(await invite(admin, { email, role: 'viewer' }));
    const { token } = await linkFor(email);
    expect(await pending(stranger)).toEqual([]);
    for (const [method, url] of [
      ['POST', `/api/invitations/${invitation.id}/resend`],
      ['DELETE', `/api/invitations/${invitation.id}`],
    ] as const) {
      const response = await mailing.t.app.inject({ method, url, headers: stranger.auth });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json<{ message: string }>().message).toBe('Cette invitation n’existe pas dans votre organisation.');
    }
    expect((await preview(token)).statusCode).toBe(200);
    expect(await pending(admin)).toEqual([invitation]);
  });

  it('refuses bad input with a French 400 and creates nothing', async () => {
    const admin = await mailing.t.createAccount();
    const sentBefore = mailing.smtp.received.length;
    for (const payload of [
      { email: 'pas-une-adresse', role: 'viewer' },
      { email: newAddress(), role: 'owner' },
      { email: newAddress(), role: 'viewer', extra: true },
      { email: `nul\u0000${newAddress()}`, role: 'viewer' },
      { email: `\ud800${newAddress()}`, role: 'viewer' },
      { role: 'viewer' },
    ]) {
      const response = await invite(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message, JSON.stringify(payload)).toMatch(FRENCH);
    }
    expect(await pending(admin)).toEqual([]);

    const { token } = await (async () => {
      const email = newAddress();
      await invite(admin, { email, role: 'viewer' });
      return linkFor(email);
    })();
    for (const payload of [
      { token: 'court' },
      { token: `${token}\u0000` },
      { token, name: 'Nom', password: PASSWORD, role: 'admin' },
      { token, name: 'Nom', password: 'court' },
      { token, name: '\ud800', password: PASSWORD },
      { token, name: '', password: PASSWORD },
    ]) {
      const url = 'name' in payload ? '/api/invitations/accept' : '/api/invitations/preview';
      const response = await mailing.t.app.inject({ method: 'POST', url, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message, JSON.stringify(payload)).toMatch(FRENCH);
    }
    // The link still works: nothing was used by the refused calls.
    expect((await preview(token)).statusCode).toBe(200);
    expect(mailing.smtp.received.length).toBe(sentBefore + 1);
  });

  it('keeps the secured calls behind a session and the public ones open', async () => {
    for (const [method, url] of [
      ['GET', '/api/invitations'],
      ['POST', '/api/invitations'],
      ['GET', '/api/members'],
    ] as const) {
      expect((await mailing.t.app.inject({ method, url, payload: {} })).statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await preview('A'.repeat(43))).statusCode).toBe(404);
  });
});

describe(`invitations without e-mail (${databaseKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_IP: '3' } });
  });
  afterAll(() => t.close());

  it('still creates the invitation and says the e-mail was not sent', async () => {
    const admin = await t.createAccount();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/invitations',
      headers: admin.auth,
      payload: { email: 'sans-smtp@example.fr', role: 'viewer' },
    });
    expect(response.statusCode).toBe(201);
    const created = body<InvitationResponse>(response);
    expect(created.emailSent).toBe(false);
    expect(await t.app.services.notifications.outbox(admin.organizationId)).toEqual([]);
    // The link comes back to the admin, once, to hand over; it works.
    expect(created.link).toMatch(/\/invitation#[A-Za-z0-9_-]{20,}$/);
    const token = created.link?.split('#')[1] ?? '';
    const preview = await t.app.inject({ method: 'POST', url: '/api/invitations/preview', payload: { token } });
    expect(preview.statusCode).toBe(200);
    // The trail says it was not e-mailed, and never holds the link.
    const trail = await t.app.inject({ url: '/api/audit?action=member.invited', headers: admin.auth });
    expect(trail.json<{ events: { details: Record<string, unknown> | null }[] }>().events[0]?.details).toEqual({
      role: 'viewer',
      emailSent: false,
    });
    expect(trail.body).not.toContain(token);
  });

  it('throttles attempts with invitation links per address, like logins (429)', async () => {
    const unknown = { token: 'B'.repeat(43) };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await t.app.inject({ method: 'POST', url: '/api/invitations/preview', payload: unknown })).statusCode).toBe(404);
    }
    for (const [url, payload] of [
      ['/api/invitations/preview', unknown],
      ['/api/invitations/accept', { ...unknown, name: 'Nom', password: 'un mot de passe assez long' }],
    ] as const) {
      const refused = await t.app.inject({ method: 'POST', url, payload });
      expect(refused.statusCode, url).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json<{ message: string }>().message).toMatch(/^Trop de tentatives/);
    }
  });
});
