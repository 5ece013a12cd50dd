import type { AuditEvent, AuditResponse, SensorResponse } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';
import { alterAuditTrail, setRole } from '../../test/test-dal.ts';

/**
 * The audit trail (issue 11): who did what and when, read and filtered by admins, exported as CSV,
 * append-only, and still naming people and things after they are deleted.
 */
describe(`audit trail (${databaseKind})`, () => {
  let t: TestApp;
  let clock = new Date('2026-03-10T09:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(() => t.close());

  async function organization() {
    const organization = `Org ${crypto.randomUUID()}`;
    const admin = await t.createAccount({ organization, name: 'Alice Admin' });
    const manager = await t.createAccount({ organization, name: 'Marc Responsable' });
    await setRole(t, manager.id, 'manager');
    return { admin, manager };
  }

  const call = (account: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: account.auth, ...(payload ? { payload } : {}) });

  async function trail(account: TestAccount, query = ''): Promise<AuditResponse> {
    const response = await call(account, 'GET', `/api/audit${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return body<AuditResponse>(response);
  }

  const summary = (events: AuditEvent[]) => events.map((event) => [event.action, event.actor?.name ?? null, event.subject?.name ?? null]);

  it('records who created, renamed and deleted a device, changed a rule and removed a member, newest first; names survive deletion', async () => {
    const { admin, manager } = await organization();
    const created = await call(manager, 'POST', '/api/sensor', { name: 'Vitrine froide' });
    expect(created.statusCode).toBe(201);
    const sensorId = body<SensorResponse>(created).sensor.id;
    expect((await call(manager, 'PUT', `/api/sensor/${sensorId}`, { name: 'Vitrine fromages' })).statusCode).toBe(200);
    const rule = await call(manager, 'POST', '/api/alert-rules', {
      name: 'Trop chaud',
      sensorId,
      condition: { type: 'above', key: 'temperature', threshold: 8 },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const ruleId = (JSON.parse(rule.body) as { rule: { id: string } }).rule.id;
    expect((await call(manager, 'PUT', `/api/alert-rules/${ruleId}`, { delaySeconds: 600 })).statusCode).toBe(200);
    expect((await call(manager, 'DELETE', `/api/sensor/${sensorId}`)).statusCode).toBe(204);
    // The manager leaves: their lines keep their name.
    expect((await call(admin, 'DELETE', `/api/members/${manager.id}`)).statusCode).toBe(204);

    const events = (await trail(admin)).events.filter((event) => !event.action.startsWith('auth.'));
    expect(summary(events)).toEqual([
      ['member.removed', 'Alice Admin', 'Marc Responsable'],
      ['device.deleted', 'Marc Responsable', 'Vitrine fromages'],
      ['rule.updated', 'Marc Responsable', 'Trop chaud'],
      ['rule.created', 'Marc Responsable', 'Trop chaud'],
      ['device.updated', 'Marc Responsable', 'Vitrine fromages'],
      ['device.created', 'Marc Responsable', 'Vitrine froide'],
    ]);
    const renamed = events.find((event) => event.action === 'device.updated');
    expect(renamed?.details).toEqual({ name: { from: 'Vitrine froide', to: 'Vitrine fromages' } });
    expect(events.find((event) => event.action === 'rule.updated')?.details).toEqual({ delaySeconds: { from: 0, to: 600 } });
    expect(events.find((event) => event.action === 'member.removed')?.details).toEqual({ email: manager.email, role: 'manager' });
    expect(events[0]?.actor).toEqual({ id: admin.id, name: 'Alice Admin', email: admin.email });
    expect(events[0]?.at).toBe(clock.toISOString());
    expect(events.every((event) => typeof event.ip === 'string')).toBe(true);
  });

  it('records sign-ins and wrong passwords of the organization’s accounts, not those of unknown addresses', async () => {
    const { admin } = await organization();
    const login = (email: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect((await login(admin.email, 'pas le bon mot de passe')).statusCode).toBe(401);
    expect((await login(admin.email, admin.password)).statusCode).toBe(200);
    expect((await login(`inconnu-${crypto.randomUUID()}@example.fr`, 'rien')).statusCode).toBe(401);
    const { events } = await trail(admin, '?q=Alice');
    const logins = events.filter((event) => event.action.startsWith('auth.'));
    // The last one is the test account's own first sign-in.
    expect(summary(logins)).toEqual([
      ['auth.login', 'Alice Admin', null],
      ['auth.login_failed', null, 'Alice Admin'],
      ['auth.login', 'Alice Admin', null],
    ]);
    expect(logins[1]?.subject).toEqual({ type: 'member', id: admin.id, name: 'Alice Admin' });
  });

  it('filters by action, author, text and day in the shop’s time zone, and pages with a cursor', async () => {
    const { admin, manager } = await organization();
    clock = new Date('2026-03-11T22:30:00Z'); // 23 h 30 in Paris, 11 March
    await call(manager, 'POST', '/api/sensor', { name: 'Sonde A' });
    clock = new Date('2026-03-11T23:30:00Z'); // 00 h 30 in Paris, 12 March
    await call(admin, 'POST', '/api/sensor', { name: 'Sonde B' });
    await call(admin, 'POST', '/api/emitter', { name: 'Passerelle C' });

    expect(summary((await trail(admin, `?actorId=${manager.id}&action=device.created`)).events)).toEqual([
      ['device.created', 'Marc Responsable', 'Sonde A'],
    ]);
    expect(summary((await trail(admin, '?from=2026-03-11&to=2026-03-11')).events)).toEqual([
      ['device.created', 'Marc Responsable', 'Sonde A'],
    ]);
    expect((await trail(admin, '?from=2026-03-12')).events.map((event) => event.subject?.name)).toEqual(['Passerelle C', 'Sonde B']);
    expect((await trail(admin, '?from=2026-03-12&tz=UTC')).events).toEqual([]);
    expect((await trail(admin, '?q=passerelle')).events.map((event) => event.subject?.name)).toEqual(['Passerelle C']);
    expect((await trail(admin, '?action=device.created&q=Sonde')).events).toHaveLength(2);

    const first = await trail(admin, '?action=device.created&limit=2');
    expect(first.events.map((event) => event.subject?.name)).toEqual(['Passerelle C', 'Sonde B']);
    expect(first.nextCursor).not.toBeNull();
    const second = await trail(admin, `?action=device.created&limit=2&cursor=${first.nextCursor}`);
    expect(second.events.map((event) => event.subject?.name)).toEqual(['Sonde A']);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses bad filters in French and shows another organization nothing', async () => {
    const { admin } = await organization();
    const other = await organization();
    await call(other.admin, 'POST', '/api/sensor', { name: 'Secret' });
    expect((await trail(admin, '?q=Secret')).events).toEqual([]);
    expect((await trail(other.admin, '?q=Secret')).events).toHaveLength(1);
    for (const [query, message] of [
      ['?from=2026-02-31', 'Date inconnue « 2026-02-31 »'],
      ['?from=hier', 'Date de début invalide'],
      ['?action=tout', 'Action inconnue du journal.'],
      ['?cursor=abc', 'Curseur invalide'],
      ['?tz=Lune/Mer', 'Fuseau horaire inconnu'],
      ['?from=2026-03-12&to=2026-03-01', 'Période invalide'],
    ] as const) {
      // The export has no pages: no cursor to check there.
      for (const url of [`/api/audit${query}`, ...(query.startsWith('?cursor') ? [] : [`/api/audit.csv${query}`])]) {
        const response = await call(admin, 'GET', url);
        expect(response.statusCode, url).toBe(400);
        expect((JSON.parse(response.body) as { message: string }).message, url).toContain(message);
      }
    }
  });

  it('exports the filtered trail as CSV for a French spreadsheet', async () => {
    const { admin, manager } = await organization();
    clock = new Date('2026-03-14T08:05:00Z');
    await call(manager, 'POST', '/api/sensor', { name: '=HYPERLINK("x")' });
    await call(admin, 'POST', '/api/sites', { name: 'Magasin; Lyon' });
    const response = await call(admin, 'GET', '/api/audit.csv?action=device.created');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="journal-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFFDate (heure locale);Date (UTC);Action;Auteur;Adresse e-mail de l’auteur;Objet;Nom de l’objet;Détails;Adresse IP',
    );
    expect(lines[1]).toBe(
      `14/03/2026 09:05:00;2026-03-14T08:05:00.000Z;Appareil ajouté;Marc Responsable;${manager.email};Capteur;"'=HYPERLINK(""x"")";;127.0.0.1`,
    );
    expect(lines.slice(2)).toEqual(['']);
    const sites = (await call(admin, 'GET', '/api/audit.csv?action=site.created')).body.split('\r\n');
    expect(sites[1]).toContain(';Site créé;Alice Admin;');
    expect(sites[1]).toContain(';Site;"Magasin; Lyon";');
  });

  it('neutralises every text cell of the CSV that a spreadsheet would run as a formula, the author’s e-mail address included', async () => {
    const email = `=cmd|'/Ccalc'!A0-${crypto.randomUUID()}@example.fr`;
    const password = `mot de passe ${crypto.randomUUID()}`;
    await t.app.services.users.createAccount({ email, password, name: '+Ève', organizationName: `Org ${crypto.randomUUID()}` });
    const signedIn = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const auth = { authorization: `Bearer ${signedIn.json<{ accessToken: string }>().accessToken}` };
    const response = await t.app.inject({ url: '/api/audit.csv?action=auth.login', headers: auth });
    expect(response.statusCode).toBe(200);
    const [, line] = response.body.split('\r\n');
    const cells = line?.split(';') ?? [];
    expect(cells.slice(2)).toEqual(['Connexion', "'+Ève", `'${email}`, '', '', '', '127.0.0.1']);
    for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('is append-only: the database refuses to change or delete a line', async () => {
    const { admin } = await organization();
    await call(admin, 'POST', '/api/sensor', { name: 'Témoin' });
    // The database's own refusal, under the query error.
    const refusal = (how: 'update' | 'delete') =>
      alterAuditTrail(t, how).then(
        () => 'accepted',
        (error: Error) => (error.cause instanceof Error ? error.cause.message : error.message),
      );
    expect(await refusal('update')).toMatch(/journal d'audit ne se modifie pas/);
    expect(await refusal('delete')).toMatch(/journal d'audit ne se modifie pas/);
    expect((await trail(admin, '?action=device.created')).events.map((event) => event.subject?.name)).toEqual(['Témoin']);
  });
});
