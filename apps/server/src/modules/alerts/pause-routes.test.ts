import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Alert, Pause, Site } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { mailingTestApp } from '../../test/mailing-test-app.ts';
import { recipientOf } from '../../test/smtp-catcher.ts';
import { setRole } from '../../test/test-dal.ts';
import { databaseKind, tempDir, type TestAccount } from '../../test/test-app.ts';

/**
 * « Mettre en pause » for planned work (docs/api.md, Pauses): the alert still opens, its e-mail
 * waits for the pause to end, and leaves then; the timeline and the audit trail say so.
 */
describe(`pauses for planned work (${databaseKind})`, { timeout: 60_000 }, () => {
  const mailing = mailingTestApp({ publicUrl: 'https://vigie.example.fr', mailFrom: 'Vigie <alertes@vigie.test>', start: new Date() });

  it('holds an alert’s e-mail while its sensor is paused, and sends it once the pause ends', async () => {
    const { t } = mailing;
    const organization = `Épicerie ${randomUUID()}`;
    const owner = await t.createAccount({ organization, name: 'Gérante' });
    const viewer = await t.createAccount({ organization, name: 'Vendeur' });
    await setRole(t, viewer.id, 'viewer');
    const call = (account: TestAccount, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: account.auth, ...(payload ? { payload } : {}) });
    const sensor = await provision(t, owner, 'sensor');
    const rule = await call(owner, 'POST', '/api/alert-rules', {
      name: 'Froid',
      sensorId: sensor.deviceId,
      preset: 'chilled_very_perishable',
    });
    expect(rule.statusCode).toBe(201);

    // A viewer may not pause; bad requests are refused in French and pause nothing.
    expect((await call(viewer, 'POST', '/api/pauses', { sensorId: sensor.deviceId, reason: 'Nettoyage', minutes: 60 })).statusCode).toBe(
      403,
    );
    const refused: [object, number, RegExp][] = [
      [{ sensorId: sensor.deviceId, reason: 'Nettoyage', minutes: 2000 }, 400, /24 heures au plus/],
      [{ sensorId: sensor.deviceId, reason: ' ', minutes: 60 }, 400, /raison de la pause est obligatoire/],
      [{ reason: 'Nettoyage', minutes: 60 }, 400, /un capteur \(sensorId\) ou un magasin \(siteId\)/],
      [{ sensorId: randomUUID(), reason: 'Nettoyage', minutes: 60 }, 404, /introuvable/i],
    ];
    for (const [payload, status, message] of refused) {
      const response = await call(owner, 'POST', '/api/pauses', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    expect((await call(owner, 'GET', '/api/pauses')).json<{ pauses: Pause[] }>().pauses).toEqual([]);

    const started = await call(owner, 'POST', '/api/pauses', { sensorId: sensor.deviceId, reason: 'Nettoyage du meuble', minutes: 120 });
    expect(started.statusCode, started.body).toBe(201);
    const { pause } = started.json<{ pause: Pause }>();
    expect(pause).toMatchObject({ sensorId: sensor.deviceId, reason: 'Nettoyage du meuble', createdBy: owner.id });
    expect(Date.parse(pause.until) - Date.parse(pause.from)).toBe(120 * 60_000);
    // Everyone sees it.
    expect((await call(viewer, 'GET', '/api/pauses')).json<{ pauses: Pause[] }>().pauses.map((p) => p.id)).toEqual([pause.id]);

    // The fridge warms during the cleaning: the alert opens, but nobody is told.
    expect((await sendTelemetry(t, sensor.accessToken, { temperature: 11.5 })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    const alerts = (await call(owner, 'GET', '/api/alerts')).json<{ alerts: Alert[] }>().alerts;
    const alert = alerts.find((entry) => entry.sensorId === sensor.deviceId);
    expect(alert?.status).toBe('open');
    mailing.clock = new Date(mailing.clock.getTime() + 20 * 60_000);
    await t.app.services.notifications.tick();
    await t.app.services.notifications.tick();
    expect((await t.app.services.notifications.outbox(owner.organizationId)).filter((row) => row.target === owner.email)).toEqual([]);

    // Paused again (a renewal): the pause is replaced, and the active alert's timeline says so.
    const renewed = await call(owner, 'POST', '/api/pauses', { sensorId: sensor.deviceId, reason: 'Réassort', minutes: 60 });
    expect(renewed.statusCode).toBe(201);
    const current = (await call(owner, 'GET', '/api/pauses')).json<{ pauses: Pause[] }>().pauses;
    expect(current.map((p) => p.reason)).toEqual(['Réassort']);
    const timeline = (await call(owner, 'GET', `/api/alerts/${alert?.id}`)).json<{ alert: Alert }>().alert.events;
    // « demain » when the hour after now, in Paris, is past midnight.
    expect(timeline.find((event) => event.type === 'paused')?.text).toMatch(
      /^Capteur en pause jusqu’à (demain\s)?\d{1,2}\u202fh\u202f\d{2}\u202f: Réassort\./,
    );

    // A viewer may not end it; the owner does: the e-mail that waited leaves now.
    const renewedId = renewed.json<{ pause: Pause }>().pause.id;
    expect((await call(viewer, 'DELETE', `/api/pauses/${renewedId}`)).statusCode).toBe(403);
    expect((await call(owner, 'DELETE', `/api/pauses/${renewedId}`)).statusCode).toBe(204);
    expect((await call(owner, 'DELETE', `/api/pauses/${renewedId}`)).statusCode).toBe(409);
    await t.app.services.notifications.tick();
    expect((await mailing.sentRow(owner.organizationId, owner.email)).status).toBe('sent');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !mailing.smtp.received.some((mail) => recipientOf(mail) === owner.email.toLowerCase()))
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mailing.smtp.received.filter((mail) => recipientOf(mail) === owner.email.toLowerCase())).toHaveLength(1);

    // The audit trail keeps who paused what, and who ended it.
    const trail = (await call(owner, 'GET', '/api/audit')).json<{ events: { action: string }[] }>().events.map((event) => event.action);
    expect(trail.filter((action) => action === 'pause.started')).toHaveLength(2);
    expect(trail).toContain('pause.ended');
  });

  it('does not let another organization see, pause or end anything of this one', async () => {
    const { t } = mailing;
    const owner = await t.createAccount();
    const stranger = await t.createAccount();
    const sensor = await provision(t, owner, 'sensor');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/pauses',
      headers: owner.auth,
      payload: { sensorId: sensor.deviceId, reason: 'Maintenance', minutes: 30 },
    });
    const { pause } = started.json<{ pause: Pause }>();
    expect((await t.app.inject({ url: '/api/pauses', headers: stranger.auth })).json<{ pauses: Pause[] }>().pauses).toEqual([]);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/pauses',
      headers: stranger.auth,
      payload: { sensorId: sensor.deviceId, reason: 'Attaque', minutes: 30 },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/pauses/${pause.id}`, headers: stranger.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/pauses', headers: owner.auth })).json<{ pauses: Pause[] }>().pauses.map((p) => p.id)).toEqual([
      pause.id,
    ]);
  });

  it('lists the pauses of a period, ended ones included, for one sensor and within a member’s shops', async () => {
    const { t } = mailing;
    const organization = `Période ${randomUUID()}`;
    const owner = await t.createAccount({ organization, name: 'Directrice' });
    const nantesManager = await t.createAccount({ organization, name: 'Gérant Nantes' });
    const call = (account: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: account.auth, ...(payload ? { payload } : {}) });
    const list = async (account: TestAccount, query: string) => {
      const response = await call(account, 'GET', `/api/pauses${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ pauses: Pause[] }>().pauses.map((pause) => pause.reason);
    };
    const site = async (name: string) => (await call(owner, 'POST', '/api/sites', { name })).json<{ site: Site }>().site;
    const lyon = await site('Lyon');
    const nantes = await site('Nantes');
    expect(
      (await call(owner, 'PUT', `/api/members/${nantesManager.id}`, { role: 'manager', scope: { siteIds: [nantes.id], regionIds: [] } }))
        .statusCode,
    ).toBe(200);
    const dairy = await provision(t, owner, 'sensor');
    const freezer = await provision(t, owner, 'sensor');
    expect((await call(owner, 'PUT', `/api/sensor/${dairy.deviceId}`, { name: 'Vitrine crèmerie', siteId: lyon.id })).statusCode).toBe(200);
    expect((await call(owner, 'PUT', `/api/sensor/${freezer.deviceId}`, { name: 'Congélateur', siteId: nantes.id })).statusCode).toBe(200);
    const pause = async (payload: object) => {
      const started = await call(owner, 'POST', '/api/pauses', payload);
      expect(started.statusCode, started.body).toBe(201);
      return started.json<{ pause: Pause }>().pause;
    };

    // A cleaning of the dairy cabinet, ended after 10 minutes; an hour later, Lyon’s inventory and Nantes’ restocking.
    const start = mailing.clock.getTime();
    const cleaning = await pause({ sensorId: dairy.deviceId, reason: 'Nettoyage', minutes: 30 });
    mailing.clock = new Date(start + 10 * 60_000);
    expect((await call(owner, 'DELETE', `/api/pauses/${cleaning.id}`)).statusCode).toBe(204);
    mailing.clock = new Date(start + 70 * 60_000);
    await pause({ siteId: lyon.id, reason: 'Inventaire', minutes: 120 });
    mailing.clock = new Date(start + 71 * 60_000);
    await pause({ sensorId: freezer.deviceId, reason: 'Réassort', minutes: 60 });
    const from = new Date(start - 3600_000).toISOString();
    const to = new Date(start + 80 * 60_000).toISOString();

    // Without a period, the pauses going on; with one, the ended cleaning too, oldest first.
    expect(await list(owner, '')).toEqual(['Inventaire', 'Réassort']);
    expect(await list(owner, `?from=${from}&to=${to}`)).toEqual(['Nettoyage', 'Inventaire', 'Réassort']);
    // A period that ends before the inventory began; `to` is now when left out.
    expect(await list(owner, `?from=${from}&to=${new Date(start + 30 * 60_000).toISOString()}`)).toEqual(['Nettoyage']);
    expect(await list(owner, `?from=${from}`)).toEqual(['Nettoyage', 'Inventaire', 'Réassort']);
    // One sensor: its own pauses and its shop's, never another shop's.
    expect(await list(owner, `?sensorId=${dairy.deviceId}&from=${from}&to=${to}`)).toEqual(['Nettoyage', 'Inventaire']);
    expect(await list(owner, `?sensorId=${dairy.deviceId}`)).toEqual(['Inventaire']);
    expect(await list(owner, `?sensorId=${freezer.deviceId}&from=${from}`)).toEqual(['Réassort']);

    // The manager of Nantes sees Nantes' pauses only, and Lyon's sensor is not theirs to ask about.
    expect(await list(nantesManager, `?from=${from}&to=${to}`)).toEqual(['Réassort']);
    expect(await list(nantesManager, '')).toEqual(['Réassort']);
    expect(await list(nantesManager, `?sensorId=${freezer.deviceId}&from=${from}`)).toEqual(['Réassort']);
    const foreign = await call(nantesManager, 'GET', `/api/pauses?sensorId=${dairy.deviceId}&from=${from}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ message: string }>().message).toMatch(/introuvable/i);
    expect((await call(owner, 'GET', `/api/pauses?sensorId=${randomUUID()}`)).statusCode).toBe(404);

    // A period that cannot be read is refused in French.
    const refused: [string, RegExp][] = [
      ['?from=hier', /début de période doit être une date ISO 8601/],
      [`?from=${from}&to=demain`, /fin de période doit être une date ISO 8601/],
      [`?to=${to}`, /début de la période \(from\) avec sa fin/],
      [`?from=${to}&to=${from}`, /fin de période doit suivre son début/],
      [`?from=${new Date(start - 100 * 86_400_000).toISOString()}&to=${to}`, /92 jours au plus/],
      ['?sensorId=capteur-1', /UUID/],
      [`?siteId=${lyon.id}`, /.+/],
    ];
    for (const [query, message] of refused) {
      const response = await call(owner, 'GET', `/api/pauses${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ message: string }>().message, query).toMatch(message);
    }
  });

  it('lists the month’s pauses of each unit, its own and its shop’s, in the monthly report', async () => {
    const { t } = mailing;
    const owner = await t.createAccount({ organization: `Rapport ${randomUUID()}`, name: 'Gérante' });
    const sensor = await provision(t, owner, 'sensor');
    const site = (await t.app.inject({ url: `/api/sensor/${sensor.deviceId}`, headers: owner.auth })).json<{ sensor: { siteId: string } }>()
      .sensor.siteId;
    await t.app.inject({
      method: 'POST',
      url: '/api/alert-rules',
      headers: owner.auth,
      payload: { name: 'Froid', sensorId: sensor.deviceId, preset: 'chilled_very_perishable' },
    });
    expect((await sendTelemetry(t, sensor.accessToken, { temperature: 3 })).statusCode).toBe(202);
    const pause = async (payload: object) =>
      (await t.app.inject({ method: 'POST', url: '/api/pauses', headers: owner.auth, payload })).json<{ pause: Pause }>().pause;
    const own = await pause({ sensorId: sensor.deviceId, reason: 'Dégivrage programmé', minutes: 45 });
    await t.app.inject({ method: 'DELETE', url: `/api/pauses/${own.id}`, headers: owner.auth });
    await pause({ siteId: site, reason: 'Réassort du magasin', minutes: 120 });

    // The report is made an hour later, the shop's pause still going on.
    mailing.clock = new Date(mailing.clock.getTime() + 60 * 60_000);
    const month = mailing.clock.toISOString().slice(0, 7);
    const made = await t.app.inject({ method: 'POST', url: '/api/reports', headers: owner.auth, payload: { siteId: site, month } });
    expect(made.statusCode, made.body).toBe(201);
    const { report } = made.json<{ report: { id: string } }>();
    const dir = tempDir('vigie-pauses-');
    const file = path.join(dir, 'rapport.pdf');
    fs.writeFileSync(file, (await t.app.inject({ url: `/api/reports/${report.id}/pdf`, headers: owner.auth })).rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('Pauses des notifications');
    // Each pause goes by its own reason: none is called « Travaux prévus ».
    expect(text).not.toContain('Travaux prévus');
    expect(text).toMatch(/Pendant chaque pause \(son motif ci-dessous\), les relevés et les alertes continuent/);
    expect(text).toMatch(/Dégivrage programmé\s+Ce meuble\s+Gérante/);
    expect(text).toMatch(/Réassort du magasin\s+Tout le magasin\s+Gérante/);
    const csv = (await t.app.inject({ url: `/api/reports/${report.id}/csv`, headers: owner.auth })).body;
    expect(csv).toContain('Pauses des notifications');
    expect(csv).toContain('Réassort du magasin;Tout le magasin;Gérante');
  });
});
