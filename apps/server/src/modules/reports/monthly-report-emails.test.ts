import { randomUUID } from 'node:crypto';
import type { Report, Site } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { mailingTestApp } from '../../test/mailing-test-app.ts';
import { recipientOf } from '../../test/smtp-catcher.ts';
import { setRole, setSiteCreatedAt } from '../../test/test-dal.ts';
import { databaseKind, type TestAccount } from '../../test/test-app.ts';

/**
 * On the 1st, each shop's report of the month before is e-mailed to its people — those whose scope
 * holds the shop — once, however many runs of the job (or instances) make and tell it.
 */
describe(`monthly reports e-mailed to each shop's people (${databaseKind})`, { timeout: 60_000 }, () => {
  // 1 December 2026, 08:00 in Paris: November's reports are due.
  const mailing = mailingTestApp({
    publicUrl: 'https://vigie.example.fr',
    mailFrom: 'Vigie <rapports@vigie.test>',
    start: new Date('2026-12-01T07:00:00Z'),
  });

  it('e-mails each shop’s report once to the people whose scope holds it, with where to sign it and its fingerprint', async () => {
    const { t } = mailing;
    const organization = `Chaîne ${randomUUID()}`;
    const director = await t.createAccount({ organization, name: 'Directrice qualité' });
    const call = (account: TestAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: account.auth, ...(payload ? { payload } : {}) });
    const site = async (name: string) => (await call(director, 'POST', '/api/sites', { name })).json<{ site: Site }>().site;
    const lyon = await site('Magasin Lyon');
    const lille = await site('Magasin Lille');
    const lyonManager = await t.createAccount({ organization, name: 'Responsable Lyon' });
    await setRole(t, lyonManager.id, 'manager');
    expect((await call(director, 'PUT', `/api/members/${lyonManager.id}`, { scope: { siteIds: [lyon.id] } })).statusCode).toBe(200);
    const sites = (await call(director, 'GET', '/api/sites')).json<{ sites: Site[] }>().sites;
    for (const each of sites) await setSiteCreatedAt(t, '2026-10-01T00:00:00Z', each.id);

    // Two runs at once (two instances), then the next hour's: made once, told once.
    await Promise.all([t.app.services.reports.makeMonthly(), t.app.services.reports.makeMonthly()]);
    await t.app.services.reports.makeMonthly();
    await t.app.services.notifications.tick();

    const reports = (await call(director, 'GET', '/api/reports'))
      .json<{ reports: Report[] }>()
      .reports.filter((report) => report.automatic);
    expect(reports.map((report) => report.month)).toEqual(sites.map(() => '2026-11'));
    const expected = new Map([
      [director.email.toLowerCase(), sites.length],
      [lyonManager.email.toLowerCase(), 1],
    ]);
    const deadline = Date.now() + 15_000;
    const mailsTo = (email: string) => mailing.smtp.received.filter((mail) => recipientOf(mail) === email);
    while (Date.now() < deadline && [...expected].some(([email, count]) => mailsTo(email).length < count))
      await new Promise((resolve) => setTimeout(resolve, 50));

    // The director hears of every shop, Lyon's manager of Lyon alone.
    expect(
      mailsTo(director.email.toLowerCase())
        .map((mail) => mail.subject)
        .sort(),
    ).toEqual(sites.map((each) => `Rapport HACCP de novembre 2026 — ${each.name}`).sort());
    const [lyonMail] = mailsTo(lyonManager.email.toLowerCase());
    expect(mailsTo(lyonManager.email.toLowerCase())).toHaveLength(1);
    expect(lyonMail?.subject).toBe('Rapport HACCP de novembre 2026 — Magasin Lyon');
    const lyonReport = reports.find((report) => report.siteId === lyon.id);
    expect(lyonMail?.text).toContain(`https://vigie.example.fr/dashboard/rapports?site=${lyon.id}`);
    expect(lyonMail?.text).toContain(`Empreinte SHA-256 du PDF\u202f: ${lyonReport?.sha256}`);
    expect(lyonMail?.text).toContain('Le rapport HACCP de novembre 2026 du magasin «\u202fMagasin Lyon\u202f» est prêt');
    expect(mailsTo(lyonManager.email.toLowerCase()).some((mail) => mail.subject?.includes(lille.name))).toBe(false);

    // A day later, the job runs again: nothing more is sent.
    const before = mailing.smtp.received.length;
    mailing.clock = new Date('2026-12-02T09:00:00Z');
    await t.app.services.reports.makeMonthly();
    await t.app.services.notifications.tick();
    expect(mailing.smtp.received.length).toBe(before);
  });
});
