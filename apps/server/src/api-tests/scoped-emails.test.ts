import { randomUUID } from 'node:crypto';
import type { Site } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../test/device-helpers.ts';
import { mailingTestApp } from '../test/mailing-test-app.ts';
import { recipientOf } from '../test/smtp-catcher.ts';
import { setRole } from '../test/test-dal.ts';
import { databaseKind, type TestAccount } from '../test/test-app.ts';

/**
 * An alert's e-mails reach the people whose scope holds its shop (docs/api.md, Régions et portées):
 * the chain's quality director and Lille's manager hear of Lille's fridge; Lyon's manager does not.
 */
describe(`alert e-mails of a scoped member (${databaseKind})`, () => {
  const mailing = mailingTestApp({ publicUrl: 'https://vigie.example.fr', mailFrom: 'Vigie <alertes@vigie.test>', start: new Date() });

  it('e-mails an alert to the team members whose scope holds its site, and to no one else', async () => {
    const { t } = mailing;
    const organization = `Chaîne ${randomUUID()}`;
    const director = await t.createAccount({ organization, name: 'Directrice qualité' });
    const call = (account: TestAccount, method: 'POST' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url, headers: account.auth, payload });
    const site = async (name: string) => (await call(director, 'POST', '/api/sites', { name })).json<{ site: Site }>().site;
    const lyon = await site('Magasin Lyon');
    const lille = await site('Magasin Lille');
    const managerOf = async (name: string, siteId: string) => {
      const account = await t.createAccount({ organization, name });
      await setRole(t, account.id, 'manager');
      expect((await call(director, 'PUT', `/api/members/${account.id}`, { scope: { siteIds: [siteId] } })).statusCode).toBe(200);
      return account;
    };
    const lyonManager = await managerOf('Responsable Lyon', lyon.id);
    const lilleManager = await managerOf('Responsable Lille', lille.id);

    const sensor = await provision(t, director, 'sensor');
    expect((await call(director, 'PUT', `/api/sensor/${sensor.deviceId}`, { name: 'Vitrine Lille', siteId: lille.id })).statusCode).toBe(
      200,
    );
    const rule = await call(director, 'POST', '/api/alert-rules', {
      name: 'Froid',
      sensorId: sensor.deviceId,
      preset: 'chilled_very_perishable',
    });
    expect(rule.statusCode).toBe(201);
    expect((await sendTelemetry(t, sensor.accessToken, { temperature: 11.5 })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    // A quarter of an hour later, the notifier's turn (as its job would run it).
    mailing.clock = new Date(mailing.clock.getTime() + 15 * 60_000);
    await t.app.services.notifications.tick();
    await t.app.services.notifications.tick();

    // The two who are told receive it through the SMTP server…
    expect((await mailing.sentRow(director.organizationId, director.email)).status).toBe('sent');
    expect((await mailing.sentRow(director.organizationId, lilleManager.email)).status).toBe('sent');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !mailing.smtp.received.some((mail) => recipientOf(mail) === lilleManager.email.toLowerCase())) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const received = mailing.smtp.received.filter((mail) => recipientOf(mail) === lilleManager.email.toLowerCase());
    expect(received.map((mail) => mail.subject)).toEqual([expect.stringContaining('Vitrine Lille')]);
    // …and Lyon's manager is never planned a message about Lille.
    const outbox = await t.app.services.notifications.outbox(director.organizationId);
    expect(outbox.filter((row) => row.target === lyonManager.email)).toEqual([]);
    expect(mailing.smtp.received.filter((mail) => recipientOf(mail) === lyonManager.email.toLowerCase())).toEqual([]);
  });
});
