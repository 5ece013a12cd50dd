import { randomUUID } from 'node:crypto';
import type { Digest, Site } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { mailingTestApp } from '../../test/mailing-test-app.ts';
import { recipientOf } from '../../test/smtp-catcher.ts';
import { databaseKind, type TestAccount } from '../../test/test-app.ts';
import { localMidnight } from './digest-service.ts';
import { localTime } from './on-call-rota.ts';

const HOUR = 3600_000;

/**
 * The daily digest (docs/api.md, Résumé quotidien): from 7 h on the clock of one's shops, once a
 * day, yesterday's alerts in the shops of one's scope, for those who asked for it.
 */
describe(`daily digest of yesterday's alerts (${databaseKind})`, { timeout: 60_000 }, () => {
  const mailing = mailingTestApp({ publicUrl: 'https://vigie.example.fr', mailFrom: 'Vigie <alertes@vigie.test>', start: new Date() });

  it('e-mails each person who asked, once a day from 7 h, the alerts of their own shops', async () => {
    const { t } = mailing;
    const organization = `Chaîne ${randomUUID()}`;
    const director = await t.createAccount({ organization, name: 'Directrice qualité' });
    const lyonManager = await t.createAccount({ organization, name: 'Gérant Lyon' });
    const lilleManager = await t.createAccount({ organization, name: 'Gérante Lille' });
    const call = (who: TestAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
    const site = async (name: string) => (await call(director, 'POST', '/api/sites', { name })).json<{ site: Site }>().site;
    const lyon = await site('Magasin Lyon');
    const lille = await site('Magasin Lille');
    for (const [who, shop] of [
      [lyonManager, lyon],
      [lilleManager, lille],
    ] as const) {
      const scoped = await call(director, 'PUT', `/api/members/${who.id}`, { role: 'manager', scope: { siteIds: [shop.id] } });
      expect(scoped.statusCode, scoped.body).toBe(200);
    }

    // Nobody gets it unasked; a wrong answer is refused in French and changes nothing.
    expect((await call(director, 'GET', '/api/user/digest')).json<{ digest: Digest }>().digest).toEqual({ enabled: false, hour: 7 });
    const refused = await call(director, 'PUT', '/api/user/digest', { enabled: 'oui' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/true ou false/);
    for (const who of [director, lilleManager]) {
      const asked = await call(who, 'PUT', '/api/user/digest', { enabled: true });
      expect(asked.statusCode, asked.body).toBe(200);
      expect(asked.json<{ digest: Digest }>().digest.enabled).toBe(true);
    }

    // Today, Lyon's cream display warms up and stays warm.
    const sensor = await provision(t, director, 'sensor');
    await call(director, 'PUT', `/api/sensor/${sensor.deviceId}`, { name: 'Vitrine crèmerie', siteId: lyon.id });
    expect(
      (await call(director, 'POST', '/api/alert-rules', { name: 'Froid', sensorId: sensor.deviceId, preset: 'chilled_very_perishable' }))
        .statusCode,
    ).toBe(201);
    expect((await sendTelemetry(t, sensor.accessToken, { temperature: 11.5 })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();

    // Tomorrow at 6 h 30 in Paris, nothing yet; at 7 h 30, two runs at once (two instances) and a third.
    const today = localTime(mailing.clock, 'Europe/Paris').day;
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
    const morning = localMidnight(tomorrow, 'Europe/Paris').getTime();
    const digests = t.app.services.digests;
    mailing.clock = new Date(morning + 6.5 * HOUR);
    expect(await digests.run()).toBe(0);
    mailing.clock = new Date(morning + 7.5 * HOUR);
    const [first, second] = await Promise.all([digests.run(), digests.run()]);
    expect(first + second).toBe(2);
    expect(await digests.run()).toBe(0);
    await t.app.services.notifications.tick();

    const outbox = await t.app.services.notifications.outbox(director.organizationId);
    const isDigest = (row: { payload: unknown }) => JSON.stringify(row.payload).includes('Résumé d’hier');
    const to = (who: TestAccount) => outbox.filter((row) => row.target === who.email.toLowerCase() && isDigest(row));
    expect(to(director)).toHaveLength(1);
    expect(to(lilleManager)).toHaveLength(1);
    expect(to(lyonManager)).toHaveLength(0);

    const deadline = Date.now() + 10_000;
    const mailTo = (who: TestAccount) =>
      mailing.smtp.received.find((mail) => recipientOf(mail) === who.email.toLowerCase() && mail.subject?.startsWith('Résumé'));
    while ((!mailTo(director) || !mailTo(lilleManager)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const directorMail = mailTo(director);
    expect(directorMail?.subject).toMatch(/^Résumé d’hier, \p{L}+ \d+ \p{L}+\u202f: 1 alerte$/u);
    expect(directorMail?.text).toContain('Magasin Lyon');
    expect(directorMail?.text).toMatch(/Vitrine crèmerie — Hors limites \(≤\u00a0\+4,0\u00a0°C\) — pic 11,5\u00a0°C — toujours active/);
    expect(directorMail?.text).toContain('https://vigie.example.fr/dashboard/alertes');
    // Lille's manager is told of Lille only, where nothing happened.
    const lilleMail = mailTo(lilleManager);
    expect(lilleMail?.subject).toMatch(/: aucune alerte$/);
    expect(lilleMail?.text).toContain('Aucune alerte hier');
    expect(lilleMail?.text).not.toContain('Lyon');
    expect(lilleMail?.text).not.toContain('Vitrine');

    // Turned off: the next morning brings nothing.
    await call(director, 'PUT', '/api/user/digest', { enabled: false });
    mailing.clock = new Date(morning + 24 * HOUR + 7.5 * HOUR);
    expect(await digests.run()).toBe(1);
    await t.app.services.notifications.tick();
    const later = await t.app.services.notifications.outbox(director.organizationId);
    expect(later.filter((row) => row.target === director.email.toLowerCase() && isDigest(row))).toHaveLength(1);
    expect(later.filter((row) => row.target === lilleManager.email.toLowerCase() && isDigest(row))).toHaveLength(2);
  });
});
