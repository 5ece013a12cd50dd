import { randomUUID } from 'node:crypto';
import type { Alert, Site } from '@vigie/contract';
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

  it('writes to the addresses a step names, but not to a member whose scope does not hold the site; an outside contractor stays', async () => {
    const { t } = mailing;
    const organization = `Chaîne ${randomUUID()}`;
    const director = await t.createAccount({ organization, name: 'Directrice qualité' });
    const call = (account: TestAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: account.auth, ...(payload === undefined ? {} : { payload }) });
    const site = async (name: string) => (await call(director, 'POST', '/api/sites', { name })).json<{ site: Site }>().site;
    const lyon = await site('Magasin Lyon');
    const lille = await site('Magasin Lille');
    const memberOf = async (name: string, siteId: string) => {
      const account = await t.createAccount({ organization, name });
      expect((await call(director, 'PUT', `/api/members/${account.id}`, { scope: { siteIds: [siteId] } })).statusCode).toBe(200);
      return account;
    };
    const lyonViewer = await memberOf('Employé Lyon', lyon.id);
    const lilleViewer = await memberOf('Employée Lille', lille.id);
    // The refrigeration contractor is no member: the admin typed the address on purpose.
    const contractor = `Froid-Service-${randomUUID()}@frigoriste.test`;
    const policy = await call(director, 'PUT', '/api/notification-policy', {
      // Lyon's employee's address as typed, in capitals: the same person all the same.
      steps: [{ afterMinutes: 0, emails: [lyonViewer.email.toUpperCase(), lilleViewer.email, contractor] }],
    });
    expect(policy.statusCode).toBe(200);

    const sensor = await provision(t, director, 'sensor');
    expect(
      (await call(director, 'PUT', `/api/sensor/${sensor.deviceId}`, { name: 'Chambre froide Lille', siteId: lille.id })).statusCode,
    ).toBe(200);
    expect(
      (await call(director, 'POST', '/api/alert-rules', { name: 'Froid', sensorId: sensor.deviceId, preset: 'chilled_very_perishable' }))
        .statusCode,
    ).toBe(201);
    expect((await sendTelemetry(t, sensor.accessToken, { temperature: 11.5 })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    mailing.clock = new Date(mailing.clock.getTime() + 15 * 60_000);
    await t.app.services.notifications.tick();
    await t.app.services.notifications.tick();

    // The contractor and Lille's employee receive it through the SMTP server…
    expect((await mailing.sentRow(director.organizationId, contractor)).status).toBe('sent');
    expect((await mailing.sentRow(director.organizationId, lilleViewer.email)).status).toBe('sent');
    const deadline = Date.now() + 10_000;
    const receivedBy = (email: string) => mailing.smtp.received.filter((mail) => recipientOf(mail) === email.toLowerCase());
    while (Date.now() < deadline && receivedBy(contractor).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receivedBy(contractor).map((mail) => mail.subject)).toEqual([expect.stringContaining('Chambre froide Lille')]);
    // …Lyon's employee, named by address, is never planned a message about Lille, nor named in its history.
    const outbox = await t.app.services.notifications.outbox(director.organizationId);
    expect(outbox.filter((row) => row.target.toLowerCase() === lyonViewer.email.toLowerCase())).toEqual([]);
    expect(receivedBy(lyonViewer.email)).toEqual([]);
    const [alert] = (await call(director, 'GET', `/api/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts;
    const told = alert?.events.find((event) => event.type === 'notified')?.text;
    expect(told).toBe(`Alerte envoyée à ${lilleViewer.email}, ${contractor}.`);
  });
});
