import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Alert, Check, Report, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { setRole } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, tempDir, type TestAccount, type TestApp } from '../../test/test-app.ts';

/**
 * The record beyond the sensors (docs/api.md, Actions guidées et contrôles manuels): a guided
 * corrective action with the products' fate, a delivery refused at reception, a product probed;
 * each with who and when, in the month's HACCP report (PDF and CSV), never among the readings.
 */
describe(`guided actions and manual checks on ${databaseKind}`, { timeout: 90_000 }, () => {
  let t: TestApp;
  let owner: TestAccount;
  let clerk: TestAccount;
  let outsider: TestAccount;
  let site: Site;
  let other: Site;
  let sensorId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    const organization = `Supérette ${randomUUID()}`;
    owner = await t.createAccount({ organization, name: 'Marie Dupont' });
    clerk = await t.createAccount({ organization, name: 'Karim Réception' });
    outsider = await t.createAccount({ organization, name: 'Gérant Nantes' });
    await setRole(t, clerk.id, 'viewer');
    site = (await call(owner, 'POST', '/api/sites', { name: 'Crèmerie Lyon' })).json<{ site: Site }>().site;
    other = (await call(owner, 'POST', '/api/sites', { name: 'Nantes' })).json<{ site: Site }>().site;
    expect(
      (await call(owner, 'PUT', `/api/members/${outsider.id}`, { role: 'manager', scope: { siteIds: [other.id], regionIds: [] } }))
        .statusCode,
    ).toBe(200);
    const sensor = await provision(t, owner, 'sensor');
    sensorId = sensor.deviceId;
    token = sensor.accessToken;
    await call(owner, 'PUT', `/api/sensor/${sensorId}`, { name: 'Vitrine yaourts', siteId: site.id });
    await call(owner, 'POST', '/api/alert-rules', { name: 'Froid ≤ +4 °C', sensorId, preset: 'chilled_very_perishable' });
  });
  afterAll(() => t.close());

  function call(who: TestAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    return t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  }

  it('records a guided action and the products destroyed, with the quantity, and refuses a vague one', async () => {
    expect((await sendTelemetry(t, token, { values: { temperature: 11.2 } })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    const alert = (await call(owner, 'GET', `/api/alerts?sensorId=${sensorId}`)).json<{ alerts: Alert[] }>().alerts[0];
    const url = `/api/alerts/${alert?.id}/actions`;
    for (const [payload, message] of [
      [{}, /choisissez-la dans la liste/],
      [{ kind: 'other' }, /demande un texte/],
      [{ kind: 'pas-une-action' }, /Action inconnue/],
      [{ kind: 'products_moved', fate: { outcome: 'destroyed', product: 'Yaourts', quantity: { value: -2, unit: 'kg' } } }, /positive/],
      [{ kind: 'products_moved', fate: { outcome: 'jetés', product: 'Yaourts', quantity: { value: 2, unit: 'kg' } } }, /Devenir inconnu/],
    ] as const) {
      const refused = await call(owner, 'POST', url, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<{ message: string }>().message).toMatch(message);
    }
    const moved = await call(owner, 'POST', url, { kind: 'products_moved' });
    expect(moved.statusCode, moved.body).toBe(201);
    const destroyed = await call(owner, 'POST', url, {
      kind: 'products_checked',
      text: 'Cœur des yaourts à 9 °C.',
      fate: { outcome: 'destroyed', product: 'Yaourts nature', quantity: { value: 12, unit: 'kg' } },
    });
    expect(destroyed.statusCode, destroyed.body).toBe(201);
    const actions = destroyed.json<{ alert: Alert }>().alert.events.filter((event) => event.type === 'action');
    expect(actions.map((event) => [event.text, event.action])).toEqual([
      ['Produits transférés dans un autre meuble', { kind: 'products_moved', fate: null }],
      [
        'Cœur des yaourts à 9 °C.',
        { kind: 'products_checked', fate: { outcome: 'destroyed', product: 'Yaourts nature', quantity: { value: 12, unit: 'kg' } } },
      ],
    ]);
  });

  it('notes temperatures taken by hand, with who and when, in the sites one sees, and refuses bad ones', async () => {
    const delivery = {
      siteId: site.id,
      kind: 'delivery',
      supplier: 'Laiterie du Mont',
      product: 'Crème fraîche',
      temperature: 9.4,
      accepted: false,
      quantity: { value: 3, unit: 'colis' },
      note: 'Refusée devant le chauffeur.',
    };
    for (const [who, payload, status, message] of [
      [clerk, { ...delivery, supplier: undefined }, 400, /fournisseur/],
      [clerk, { ...delivery, temperature: 300 }, 400, /entre −80 et \+120/],
      [clerk, { ...delivery, takenAt: new Date(Date.now() + 3600_000).toISOString() }, 400, /futur/],
      [clerk, { ...delivery, takenAt: new Date(Date.now() - 8 * 86_400_000).toISOString() }, 400, /7 jours/],
      [clerk, { siteId: site.id, kind: 'unit', temperature: 3 }, 400, /nomme son capteur/],
      [clerk, { siteId: other.id, kind: 'unit', sensorId, temperature: 3 }, 400, /pas dans ce magasin/],
      [clerk, { siteId: site.id, kind: 'unit', sensorId: randomUUID(), temperature: 3 }, 404, /Capteur introuvable/],
      [outsider, delivery, 404, /introuvable/i],
    ] as const) {
      const refused = await call(who, 'POST', '/api/checks', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(status);
      expect(refused.json<{ message: string }>().message).toMatch(message);
    }
    expect((await call(owner, 'GET', '/api/checks')).json<{ checks: Check[] }>().checks).toEqual([]);

    // A viewer at the back door notes the delivery; the product check and the unit read by hand follow.
    const noted = await call(clerk, 'POST', '/api/checks', delivery);
    expect(noted.statusCode, noted.body).toBe(201);
    expect(noted.json<{ check: Check }>().check).toMatchObject({
      kind: 'delivery',
      supplier: 'Laiterie du Mont',
      temperature: 9.4,
      accepted: false,
      quantity: { value: 3, unit: 'colis' },
      takenBy: { id: clerk.id, name: 'Karim Réception' },
    });
    expect(
      (await call(owner, 'POST', '/api/checks', { siteId: site.id, kind: 'product', product: 'Jambon blanc', temperature: 3.1 }))
        .statusCode,
    ).toBe(201);
    expect((await call(owner, 'POST', '/api/checks', { siteId: site.id, kind: 'unit', sensorId, temperature: 7.8 })).statusCode).toBe(201);

    const all = (await call(owner, 'GET', `/api/checks?siteId=${site.id}`)).json<{ checks: Check[] }>().checks;
    expect(all.map((check) => check.kind)).toEqual(['unit', 'product', 'delivery']);
    expect((await call(owner, 'GET', `/api/checks?sensorId=${sensorId}`)).json<{ checks: Check[] }>().checks).toHaveLength(1);
    // Someone who sees Nantes only sees none of Lyon's.
    expect((await call(outsider, 'GET', '/api/checks')).json<{ checks: Check[] }>().checks).toEqual([]);
    // Never among the sensor's readings.
    const readings = (await call(owner, 'GET', `/api/sensor/${sensorId}/readings`)).json<{ readings: { value: number }[] }>();
    expect(JSON.stringify(readings)).not.toContain('7.8');
  });

  it('prints them in the month’s HACCP report: the refused delivery and the destroyed products with who, when and the quantity', async () => {
    const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
      .format(new Date())
      .slice(0, 7);
    const made = await call(owner, 'POST', '/api/reports', { siteId: site.id, month });
    expect(made.statusCode, made.body).toBe(201);
    const { report } = made.json<{ report: Report }>();
    const pdf = await call(owner, 'GET', `/api/reports/${report.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const dir = tempDir('vigie-record-');
    const file = path.join(dir, 'rapport.pdf');
    fs.writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('Contrôles manuels et réceptions');
    expect(text).toContain('Livraison à la réception');
    expect(text).toContain('Laiterie du Mont');
    expect(text).toMatch(/Refusée\s?: 3 colis/);
    expect(text).toContain('Karim Réception');
    expect(text).toContain('+9,4 °C');
    expect(text).toContain('Jambon blanc');
    expect(text).toMatch(/Produits détruits\s?: 12 kg de Yaourts nature/);
    expect(text).toContain('Marie Dupont');
    const csv = (await call(owner, 'GET', `/api/reports/${report.id}/csv`)).body;
    expect(csv).toContain('Contrôles manuels et réceptions');
    expect(csv).toMatch(/Refusée\u00a0: 3\u00a0colis/);
    expect(csv).toMatch(/Produits détruits\u00a0: 12\u00a0kg de Yaourts nature/);
  });
});
