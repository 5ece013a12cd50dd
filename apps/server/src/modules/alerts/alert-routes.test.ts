import type { Alert, Rule, Sensor, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { openStream } from '../../test/sse-client.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

describe(`sites, alert rules and alerts over HTTP (${databaseKind})`, () => {
  let t: TestApp;
  let baseUrl: string;
  let owner: TestAccount;
  let stranger: TestAccount;
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    ({ baseUrl } = await t.listen());
    owner = await t.createAccount();
    stranger = await t.createAccount();
  });
  afterAll(() => t.close());

  const api = (who: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: who.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const settle = () => t.app.services.alerts.engine.idle();

  describe('sites (docs/api.md, Sites)', () => {
    it('gives every organization a default site where its devices go', async () => {
      const sensor = await provision(t, owner, 'sensor');
      const sites = (await api(owner, 'GET', '/sites')).json<{ sites: Site[] }>().sites;
      expect(sites).toHaveLength(1);
      expect(sites[0]).toMatchObject({ name: 'Magasin principal', timezone: 'Europe/Paris', openingHours: { sun: [] } });
      const device = (await api(owner, 'GET', `/sensor/${sensor.deviceId}`)).json<{ sensor: Sensor }>().sensor;
      expect(device.siteId).toBe(sites[0]?.id);
    });

    it('creates, updates and deletes a site; a site with devices or the last one cannot go', async () => {
      const created = await api(owner, 'POST', '/sites', {
        name: 'Boutique Lyon',
        timezone: 'Europe/Paris',
        openingHours: { sat: [['10:00', '20:00']] },
      });
      expect(created.statusCode).toBe(201);
      const site = created.json<{ site: Site }>().site;
      expect(site.openingHours).toEqual({ mon: [], tue: [], wed: [], thu: [], fri: [], sat: [['10:00', '20:00']], sun: [] });
      const renamed = await api(owner, 'PUT', `/sites/${site.id}`, { name: 'Boutique Lyon Part-Dieu' });
      expect(renamed.json<{ site: Site }>().site.name).toBe('Boutique Lyon Part-Dieu');

      const sensor = await provision(t, owner, 'sensor');
      const moved = await api(owner, 'PUT', `/sensor/${sensor.deviceId}`, { siteId: site.id });
      expect(moved.json<{ sensor: Sensor }>().sensor.siteId).toBe(site.id);
      const refused = await api(owner, 'DELETE', `/sites/${site.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json<{ message: string }>().message).toContain('déplacez-les vers un autre site');

      const [main] = (await api(owner, 'GET', '/sites')).json<{ sites: Site[] }>().sites;
      await api(owner, 'PUT', `/sensor/${sensor.deviceId}`, { siteId: main?.id });
      expect((await api(owner, 'DELETE', `/sites/${site.id}`)).statusCode).toBe(204);
      expect((await api(owner, 'GET', `/sites/${site.id}`)).statusCode).toBe(404);
      const last = await api(stranger, 'GET', '/sites');
      const [only] = last.json<{ sites: Site[] }>().sites;
      const lastRefused = await api(stranger, 'DELETE', `/sites/${only?.id}`);
      expect(lastRefused.statusCode).toBe(409);
    });

    it('refuses bad input with a French message and changes nothing', async () => {
      const before = (await api(owner, 'GET', '/sites')).json<{ sites: Site[] }>().sites;
      const cases: [unknown, string][] = [
        [{ name: '' }, 'Le nom est obligatoire.'],
        [{ name: 'X', timezone: 'Mars/Olympus' }, 'Fuseau horaire inconnu'],
        [{ name: 'X', openingHours: { mon: [['25:00', '26:00']] } }, 'HH:MM'],
        [{ name: 'X', openingHours: { lundi: [] } }, ''],
        [{ name: 'X', extra: true }, ''],
      ];
      for (const [payload, message] of cases) {
        const response = await api(owner, 'POST', '/sites', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json<{ message: string }>().message).toContain(message);
      }
      expect((await api(owner, 'GET', '/sites')).json<{ sites: Site[] }>().sites).toEqual(before);
      expect(
        (await api(owner, 'PUT', `/sensor/${(await provision(t, owner, 'sensor')).deviceId}`, { siteId: crypto.randomUUID() })).statusCode,
      ).toBe(404);
    });

    it('installs a device into the site it names, creating it when new', async () => {
      const key = (await api(owner, 'GET', '/organization/installation-key')).json<{ installationKey: string }>().installationKey;
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/devices/provision',
        payload: { installationKey: key, serial: `SITE-${Date.now()}`, kind: 'sensor', site: 'Boutique Nantes' },
      });
      expect(response.statusCode).toBe(201);
      const sites = (await api(owner, 'GET', '/sites')).json<{ sites: Site[] }>().sites;
      const nantes = sites.find((site) => site.name === 'Boutique Nantes');
      expect(nantes).toBeDefined();
      const sensor = (await api(owner, 'GET', `/sensor/${response.json<{ deviceId: string }>().deviceId}`)).json<{ sensor: Sensor }>()
        .sensor;
      expect(sensor.siteId).toBe(nantes?.id);
    });

    it('answers 404 for another organization’s site', async () => {
      const [site] = (await api(owner, 'GET', '/sites')).json<{ sites: Site[] }>().sites;
      for (const method of ['GET', 'DELETE'] as const) expect((await api(stranger, method, `/sites/${site?.id}`)).statusCode).toBe(404);
      expect((await api(stranger, 'PUT', `/sites/${site?.id}`, { name: 'Volé' })).statusCode).toBe(404);
    });
  });

  describe('rules and alerts (docs/api.md, Alertes)', () => {
    it('creates a rule from a preset, opens an alert on a reading above the limit, and tells the live stream', async () => {
      const sensor = await provision(t, owner, 'sensor');
      const created = await api(owner, 'POST', '/alert-rules', {
        name: 'Crèmerie',
        sensorId: sensor.deviceId,
        preset: 'chilled_very_perishable',
      });
      expect(created.statusCode).toBe(201);
      const rule = created.json<{ rule: Rule }>().rule;
      expect(rule).toMatchObject({
        condition: { type: 'above', key: 'temperature', threshold: 4 },
        preset: 'chilled_very_perishable',
        delaySeconds: 0,
        hysteresis: 0,
        schedule: 'always',
        severity: 'critical',
        enabled: true,
        siteId: null,
      });

      const stream = await openStream(baseUrl, owner.token);
      const strangerStream = await openStream(baseUrl, stranger.token);
      clock = Date.now();
      expect((await sendTelemetry(t, sensor.accessToken, { temperature: 12.5 })).statusCode).toBe(202);
      await settle();
      const event = await stream.waitFor((e) => e.event === 'alert' && e.data.includes(sensor.deviceId));
      expect(JSON.parse(event.data)).toMatchObject({
        action: 'opened',
        alert: { sensorId: sensor.deviceId, status: 'open', peak: 12.5, last: 12.5 },
      });

      const list = (await api(owner, 'GET', `/alerts?status=active&sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts;
      expect(list).toHaveLength(1);
      const id = list[0]?.id ?? '';
      expect((await api(stranger, 'GET', `/alerts/${id}`)).statusCode).toBe(404);
      expect((await api(stranger, 'POST', `/alerts/${id}/acknowledge`)).statusCode).toBe(404);
      expect((await api(stranger, 'GET', '/alerts')).json<{ alerts: Alert[] }>().alerts).toEqual([]);
      expect((await api(stranger, 'GET', `/alert-rules/${rule.id}`)).statusCode).toBe(404);

      const acknowledged = await api(owner, 'POST', `/alerts/${id}/acknowledge`, { comment: 'Je descends voir' });
      expect(acknowledged.json<{ alert: Alert }>().alert).toMatchObject({ status: 'acknowledged', acknowledgedBy: owner.id });
      const early = await api(owner, 'POST', `/alerts/${id}/resolve`, {});
      expect(early.statusCode).toBe(409);
      expect(early.json<{ message: string }>().message).toContain('action corrective');
      const action = await api(owner, 'POST', `/alerts/${id}/actions`, { text: 'Produits déplacés en chambre froide' });
      expect(action.statusCode).toBe(201);
      const resolved = await api(owner, 'POST', `/alerts/${id}/resolve`, { text: 'Joint de porte changé' });
      expect(resolved.json<{ alert: Alert }>().alert).toMatchObject({ status: 'resolved', resolution: 'manual' });
      expect(resolved.json<{ alert: Alert }>().alert.events.map((e) => e.type)).toEqual(['opened', 'acknowledged', 'action', 'resolved']);
      await stream.waitFor((e) => e.event === 'alert' && JSON.parse(e.data).action === 'resolved' && e.data.includes(id));

      // The other organization heard nothing of it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(strangerStream.events.filter((e) => e.event === 'alert')).toEqual([]);
      await stream.close();
      await strangerStream.close();
    });

    it('resolves by itself when the value is back within limits', async () => {
      const sensor = await provision(t, owner, 'sensor');
      await api(owner, 'POST', '/alert-rules', { name: 'Surgelés', sensorId: sensor.deviceId, preset: 'frozen', hysteresis: 1 });
      const now = Date.now();
      await sendTelemetry(t, sensor.accessToken, [
        { ts: now - 3000, values: { temperature: -15 } },
        { ts: now - 2000, values: { temperature: -18.5 } },
      ]);
      await settle();
      expect(
        (await api(owner, 'GET', `/alerts?status=active&sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts,
      ).toHaveLength(1);
      await sendTelemetry(t, sensor.accessToken, { ts: now - 1000, values: { temperature: -19.2 } });
      await settle();
      const [alert] = (await api(owner, 'GET', `/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts;
      expect(alert).toMatchObject({ status: 'resolved', resolution: 'auto', peak: -15, last: -19.2 });
    });

    it('watches every sensor of a site reporting the key, one alert per rule and sensor', async () => {
      const site = (await api(owner, 'POST', '/sites', { name: `Boutique ${Date.now()}` })).json<{ site: Site }>().site;
      const a = await provision(t, owner, 'sensor');
      const b = await provision(t, owner, 'sensor');
      for (const s of [a, b]) await api(owner, 'PUT', `/sensor/${s.deviceId}`, { siteId: site.id });
      await api(owner, 'POST', '/alert-rules', { name: 'Froid du site', siteId: site.id, preset: 'chilled_perishable' });
      for (let i = 0; i < 3; i += 1) {
        await sendTelemetry(t, a.accessToken, { temperature: 9 + i });
        await sendTelemetry(t, b.accessToken, { humidity: 80 });
      }
      await settle();
      const alerts = (await api(owner, 'GET', `/alerts?siteId=${site.id}`)).json<{ alerts: Alert[] }>().alerts;
      expect(alerts.map((alert) => [alert.sensorId, alert.peak])).toEqual([[a.deviceId, 11]]);
    });

    it('closes the alerts of a site’s rules when the site is deleted, its sensors moved elsewhere', async () => {
      const site = (await api(owner, 'POST', '/sites', { name: `Réserve ${Date.now()}` })).json<{ site: Site }>().site;
      const sensor = await provision(t, owner, 'sensor');
      await api(owner, 'PUT', `/sensor/${sensor.deviceId}`, { siteId: site.id });
      const rule = (
        await api(owner, 'POST', '/alert-rules', { name: 'Froid de la réserve', siteId: site.id, preset: 'chilled_perishable' })
      ).json<{ rule: Rule }>().rule;
      await sendTelemetry(t, sensor.accessToken, { temperature: 11 });
      await settle();
      const before = (await api(owner, 'GET', `/alerts?status=active&sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts;
      expect(before.map((alert) => alert.ruleId)).toEqual([rule.id]);

      const sites = (await api(owner, 'GET', '/sites')).json<{ sites: Site[] }>().sites;
      const other = sites.find((candidate) => candidate.id !== site.id);
      await api(owner, 'PUT', `/sensor/${sensor.deviceId}`, { siteId: other?.id });
      expect((await api(owner, 'DELETE', `/sites/${site.id}`)).statusCode).toBe(204);
      await settle();
      expect((await api(owner, 'GET', `/alert-rules/${rule.id}`)).statusCode).toBe(404);
      const after = (await api(owner, 'GET', `/alerts/${before[0]?.id}`)).json<{ alert: Alert }>().alert;
      expect(after.status).toBe('resolved');
    });

    it('refuses bad rules with a French message and changes nothing', async () => {
      const sensor = await provision(t, owner, 'sensor');
      const [site] = (await api(owner, 'GET', '/sites')).json<{ sites: Site[] }>().sites;
      const before = (await api(owner, 'GET', '/alert-rules')).json<{ rules: Rule[] }>().rules.length;
      const cases: [unknown, number, string][] = [
        [{ name: 'X', preset: 'frozen' }, 400, 'soit un capteur'],
        [{ name: 'X', sensorId: sensor.deviceId, siteId: site?.id, preset: 'frozen' }, 400, 'soit un capteur'],
        [{ name: 'X', sensorId: sensor.deviceId }, 400, 'condition ou un préréglage'],
        [{ name: 'X', sensorId: sensor.deviceId, preset: 'yaourt' }, 400, 'Préréglage inconnu'],
        [{ name: 'X', sensorId: sensor.deviceId, condition: { type: 'above', key: 'temperature' } }, 400, ''],
        [{ name: 'X', sensorId: sensor.deviceId, condition: { type: 'outside', key: 'temperature', min: 8, max: 2 } }, 400, 'minimum'],
        [{ name: 'X', sensorId: sensor.deviceId, condition: { type: 'above', key: '1temp', threshold: 4 } }, 400, 'Mesure inconnue'],
        [{ name: 'X', sensorId: sensor.deviceId, preset: 'frozen', delaySeconds: -5 }, 400, 'négatif'],
        [{ name: 'X', sensorId: sensor.deviceId, preset: 'frozen', schedule: 'weekends' }, 400, 'planning'],
        [{ name: 'X', sensorId: crypto.randomUUID(), preset: 'frozen' }, 404, 'Capteur introuvable'],
        [{ name: 'X', siteId: crypto.randomUUID(), preset: 'frozen' }, 404, 'Site introuvable'],
      ];
      for (const [payload, status, message] of cases) {
        const response = await api(owner, 'POST', '/alert-rules', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(status);
        expect(response.json<{ message: string }>().message).toContain(message);
      }
      const strangerSensor = await provision(t, stranger, 'sensor');
      expect(
        (await api(owner, 'POST', '/alert-rules', { name: 'X', sensorId: strangerSensor.deviceId, preset: 'frozen' })).statusCode,
      ).toBe(404);
      expect((await api(owner, 'GET', '/alert-rules')).json<{ rules: Rule[] }>().rules.length).toBe(before);
      expect((await api(owner, 'GET', '/alerts?status=everything')).statusCode).toBe(400);
      expect((await api(owner, 'POST', `/alerts/${crypto.randomUUID()}/actions`, { text: '' })).statusCode).toBe(400);
    });

    it('opens an offline alert with no message at all, on the clock, and resolves it when the sensor speaks', async () => {
      const sensor = await provision(t, owner, 'sensor');
      await api(owner, 'PUT', `/sensor/${sensor.deviceId}`, { inactivityTimeoutSeconds: 60 });
      await api(owner, 'POST', '/alert-rules', {
        name: 'Liaison',
        sensorId: sensor.deviceId,
        condition: { type: 'offline' },
        severity: 'warning',
      });
      await sendTelemetry(t, sensor.accessToken, { temperature: 3 });
      await settle();
      clock = Date.now() + 30_000;
      await t.app.services.alerts.engine.tick();
      expect((await api(owner, 'GET', `/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts).toEqual([]);
      clock = Date.now() + 61_000;
      await t.app.services.alerts.engine.tick();
      const [offline] = (await api(owner, 'GET', `/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts;
      expect(offline).toMatchObject({ status: 'open', severity: 'warning' });
      clock = Date.now();
      await sendTelemetry(t, sensor.accessToken, { ts: Date.now() + 62_000, values: { temperature: 3.1 } });
      await settle();
      expect((await api(owner, 'GET', `/alerts/${offline?.id}`)).json<{ alert: Alert }>().alert.status).toBe('resolved');
    });
  });
});
