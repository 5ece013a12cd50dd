import { randomUUID } from 'node:crypto';
import type { Alert, Rule, RuleTemplate } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { setRole } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

/**
 * Organization-wide rule templates (docs/api.md, Modèles de règles): laid in each site aimed at,
 * present and future, applied to new sensors without anyone touching them, tightened but never
 * loosened by a shop when locked.
 */
describe(`rule templates on ${databaseKind}`, { timeout: 60_000 }, () => {
  let t: TestApp;
  let director: TestAccount;
  let manager: TestAccount;
  let regionalAdmin: TestAccount;
  const ids = { region: '', lyon: '', grenoble: '', paris: '' };

  beforeAll(async () => {
    t = await createTestApp();
    const organization = `Chaîne ${randomUUID()}`;
    director = await t.createAccount({ organization, name: 'Directrice qualité' });
    manager = await t.createAccount({ organization, name: 'Gérant Lyon' });
    regionalAdmin = await t.createAccount({ organization, name: 'Admin régional' });
    await setRole(t, manager.id, 'manager');
    const post = async (url: string, payload: object) => {
      const response = await call(director, 'POST', url, payload);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<Record<string, { id: string }>>();
    };
    ids.region = (await post('/api/regions', { name: 'Rhône-Alpes' }))['region']?.id ?? '';
    ids.lyon = (await post('/api/sites', { name: 'Lyon', regionId: ids.region }))['site']?.id ?? '';
    ids.grenoble = (await post('/api/sites', { name: 'Grenoble', regionId: ids.region }))['site']?.id ?? '';
    ids.paris = (await post('/api/sites', { name: 'Paris' }))['site']?.id ?? '';
    // An admin who sees one region only may not manage the organization's templates.
    expect(
      (await call(director, 'PUT', `/api/members/${regionalAdmin.id}`, { scope: { siteIds: [], regionIds: [ids.region] } })).statusCode,
    ).toBe(200);
  });
  afterAll(() => t.close());

  const call = (who: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const rulesOf = async (siteId: string) =>
    (await call(director, 'GET', `/api/alert-rules?siteId=${siteId}`)).json<{ rules: Rule[] }>().rules.filter((rule) => rule.template);

  it('lays a locked rule in each site of its region, applies it to a new sensor, and lets a shop tighten it but not loosen it', async () => {
    // Only an admin who sees the whole organization makes templates; bad ones are refused in French.
    const body = { name: 'Crèmerie ≤ +4 °C', preset: 'chilled_very_perishable', locked: true, regionIds: [ids.region] };
    expect((await call(manager, 'POST', '/api/rule-templates', body)).statusCode).toBe(403);
    expect((await call(regionalAdmin, 'POST', '/api/rule-templates', body)).statusCode).toBe(403);
    for (const [payload, message] of [
      [{ ...body, siteIds: [randomUUID()] }, /n’existe pas/],
      [{ ...body, regionIds: [randomUUID()] }, /n’existe pas/],
      [{ name: 'Hors ligne', condition: { type: 'offline' } }, /offline/],
      [{ name: 'Sans condition' }, /condition ou un préréglage/],
    ] as const) {
      const refused = await call(director, 'POST', '/api/rule-templates', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<{ message: string }>().message).toMatch(message);
    }
    expect((await call(director, 'GET', '/api/rule-templates')).json<{ templates: RuleTemplate[] }>().templates).toEqual([]);

    const created = await call(director, 'POST', '/api/rule-templates', body);
    expect(created.statusCode, created.body).toBe(201);
    const { template } = created.json<{ template: RuleTemplate }>();
    expect(template).toMatchObject({ locked: true, condition: { type: 'above', key: 'temperature', threshold: 4 } });
    expect(template.appliedSiteIds).toEqual([ids.lyon, ids.grenoble].sort());
    expect(await rulesOf(ids.paris)).toEqual([]);
    const [lyonRule] = await rulesOf(ids.lyon);
    expect(lyonRule).toMatchObject({ name: 'Crèmerie ≤ +4 °C', siteId: ids.lyon, template: { id: template.id, locked: true } });

    // A sensor installed in Lyon afterwards is watched without anyone touching it.
    const sensor = await provision(t, director, 'sensor');
    expect((await call(director, 'PUT', `/api/sensor/${sensor.deviceId}`, { siteId: ids.lyon, name: 'Vitrine crèmerie' })).statusCode).toBe(
      200,
    );
    expect((await sendTelemetry(t, sensor.accessToken, { values: { temperature: 6.1 } })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    const alerts = (await call(director, 'GET', `/api/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts;
    expect(alerts.map((alert) => alert.ruleId)).toEqual([lyonRule?.id]);

    // The shop tightens it; loosening, switching it off or removing it is refused and changes nothing.
    const url = `/api/alert-rules/${lyonRule?.id}`;
    for (const [payload, message] of [
      [{ condition: { type: 'above', key: 'temperature', threshold: 6 } }, /relâcher sa limite/],
      [{ enabled: false }, /la désactiver/],
      [{ severity: 'warning' }, /baisser sa gravité/],
      [{ schedule: 'opening_hours' }, /réduire son planning/],
      [{ delaySeconds: 3600 }, /allonger son délai/],
    ] as const) {
      const refused = await call(manager, 'PUT', url, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(403);
      expect(refused.json<{ message: string }>().message).toMatch(/modèle « Crèmerie ≤ \+4 °C », verrouillé/);
      expect(refused.json<{ message: string }>().message).toMatch(message);
    }
    const removal = await call(manager, 'DELETE', url);
    expect(removal.statusCode).toBe(403);
    expect(removal.json<{ message: string }>().message).toMatch(/retirez ce magasin du modèle/);
    const tightened = await call(manager, 'PUT', url, {
      condition: { type: 'above', key: 'temperature', threshold: 3 },
      name: 'Crèmerie Lyon',
    });
    expect(tightened.statusCode, tightened.body).toBe(200);
    expect(tightened.json<{ rule: Rule }>().rule).toMatchObject({ condition: { threshold: 3 }, enabled: true });

    // A shop moved into the region gets the rule at once; one moved out loses it (and its alerts close).
    expect((await call(director, 'PUT', `/api/sites/${ids.paris}`, { regionId: ids.region })).statusCode).toBe(200);
    expect((await rulesOf(ids.paris)).map((rule) => rule.template?.id)).toEqual([template.id]);
    expect((await call(director, 'PUT', `/api/sites/${ids.paris}`, { regionId: null })).statusCode).toBe(200);
    expect(await rulesOf(ids.paris)).toEqual([]);

    // Changing the template changes every rule it laid, recorded in the audit trail.
    const changed = await call(director, 'PUT', `/api/rule-templates/${template.id}`, {
      condition: { type: 'above', key: 'temperature', threshold: 5 },
      name: 'Crèmerie ≤ +5 °C',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    for (const siteId of [ids.lyon, ids.grenoble]) {
      expect((await rulesOf(siteId)).map((rule) => [rule.name, rule.condition])).toEqual([
        ['Crèmerie ≤ +5 °C', { type: 'above', key: 'temperature', threshold: 5 }],
      ]);
    }
    const audit = await call(director, 'GET', '/api/audit?action=rule_template.updated');
    expect(audit.json<{ events: { details: Record<string, unknown> | null }[] }>().events[0]?.details).toMatchObject({
      name: { from: 'Crèmerie ≤ +4 °C', to: 'Crèmerie ≤ +5 °C' },
    });

    // Removed, it takes its rules with it.
    expect((await call(director, 'DELETE', `/api/rule-templates/${template.id}`)).statusCode).toBe(204);
    expect(await rulesOf(ids.lyon)).toEqual([]);
    expect((await call(director, 'GET', `/api/alerts/${alerts[0]?.id}`)).json<{ alert: Alert }>().alert.status).toBe('resolved');
  });

  it('applies a template without sites or regions to every site, a new one included; unlocked, a shop may switch it off', async () => {
    const created = await call(director, 'POST', '/api/rule-templates', {
      name: 'Humidité réserve',
      condition: { type: 'above', key: 'humidity', threshold: 85 },
      severity: 'warning',
      locked: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { template } = created.json<{ template: RuleTemplate }>();
    const sites = (await call(director, 'GET', '/api/sites')).json<{ sites: { id: string }[] }>().sites;
    expect(template.appliedSiteIds).toEqual(sites.map((site) => site.id).sort());
    const fresh = (await call(director, 'POST', '/api/sites', { name: 'Annecy' })).json<{ site: { id: string } }>().site.id;
    const [rule] = await rulesOf(fresh);
    expect(rule?.template).toEqual({ id: template.id, name: 'Humidité réserve', locked: false });
    expect((await call(manager, 'PUT', `/api/alert-rules/${rule?.id}`, { enabled: false })).statusCode).toBe(200);
    // Removing a site removes its rule with it.
    expect((await call(director, 'DELETE', `/api/sites/${fresh}`)).statusCode).toBe(204);
    const after = (await call(director, 'GET', '/api/rule-templates')).json<{ templates: RuleTemplate[] }>().templates;
    expect(after.find((each) => each.id === template.id)?.appliedSiteIds).not.toContain(fresh);
  });

  it('aims at one kind of unit by a word of its name: only those sensors are watched, a new one included, and aiming elsewhere closes the others’ alerts', async () => {
    const site = (await call(director, 'POST', '/api/sites', { name: 'Villeurbanne' })).json<{ site: { id: string } }>().site.id;
    const install = async (name: string) => {
      const device = await provision(t, director, 'sensor');
      expect((await call(director, 'PUT', `/api/sensor/${device.deviceId}`, { siteId: site, name })).statusCode).toBe(200);
      return device;
    };
    const creamery = await install('Meuble CRÈMERIE 1');
    const butcher = await install('Vitrine boucherie');
    const alertsOf = async (sensorId: string) =>
      (await call(director, 'GET', `/api/alerts?sensorId=${sensorId}`)).json<{ alerts: Alert[] }>().alerts;

    // Words too short, too many or not text are refused in French, and nothing is made.
    for (const words of [['x'], Array.from({ length: 21 }, (_, i) => `mot${i}`), [42]]) {
      const refused = await call(director, 'POST', '/api/rule-templates', {
        name: 'Refusé',
        preset: 'chilled_very_perishable',
        sensorNameContains: words,
      });
      expect(refused.statusCode, JSON.stringify(words)).toBe(400);
      expect(refused.json<{ message: string }>().message).toMatch(/capteurs visés/);
    }
    const created = await call(director, 'POST', '/api/rule-templates', {
      name: 'Crèmerie ≤ +4 °C, Villeurbanne',
      preset: 'chilled_very_perishable',
      siteIds: [site],
      sensorNameContains: ['crèmerie', 'Cremerie', 'yaourts'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { template } = created.json<{ template: RuleTemplate }>();
    // « Cremerie » is « crèmerie » without its accent: kept once.
    expect(template.sensorNameContains).toEqual(['crèmerie', 'yaourts']);
    const rule = (await rulesOf(site)).find((each) => each.template?.id === template.id);
    expect(rule?.sensorNameContains).toEqual(['crèmerie', 'yaourts']);

    // Both at +6 °C: the creamery unit is in alert, the butcher's counter is not watched by the template.
    for (const device of [creamery, butcher]) {
      expect((await sendTelemetry(t, device.accessToken, { values: { temperature: 6 } })).statusCode).toBe(202);
    }
    await t.app.services.alerts.engine.idle();
    expect((await alertsOf(creamery.deviceId)).map((alert) => alert.ruleId)).toEqual([rule?.id]);
    expect(await alertsOf(butcher.deviceId)).toEqual([]);

    // A yoghurt cabinet installed later follows it without anyone touching the template.
    const yoghurts = await install('Yaourts libre-service');
    expect((await sendTelemetry(t, yoghurts.accessToken, { values: { temperature: 5.5 } })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    expect((await alertsOf(yoghurts.deviceId)).map((alert) => alert.ruleId)).toEqual([rule?.id]);

    // Aimed at the butcher's counters instead: the units it left see their alerts closed, the counter is watched.
    const aimed = await call(director, 'PUT', `/api/rule-templates/${template.id}`, { sensorNameContains: ['boucherie'] });
    expect(aimed.statusCode, aimed.body).toBe(200);
    await t.app.services.alerts.engine.idle();
    for (const device of [creamery, yoghurts]) {
      const [closed] = await alertsOf(device.deviceId);
      expect(closed?.status).toBe('resolved');
    }
    expect((await sendTelemetry(t, butcher.accessToken, { values: { temperature: 6.2 } })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    expect((await alertsOf(butcher.deviceId)).map((alert) => [alert.ruleId, alert.status])).toEqual([[rule?.id, 'open']]);
    expect((await call(director, 'DELETE', `/api/rule-templates/${template.id}`)).statusCode).toBe(204);
  });
});
