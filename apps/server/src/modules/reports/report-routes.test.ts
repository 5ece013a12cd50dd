import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Report, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { setRole, setSiteCreatedAt } from '../../test/test-dal.ts';
import {
  createTestApp,
  databaseKind,
  databaseUrl,
  isolatedDatabase,
  tempDir,
  type TestAccount,
  type TestApp,
} from '../../test/test-app.ts';

const MIN = 60_000;
const OCTOBER = { from: Date.parse('2026-09-30T22:00:00Z'), to: Date.parse('2026-10-31T23:00:00Z') };

/**
 * October 2026 in Paris (31 days and one hour), a reading every 5 minutes with a 90-minute
 * excursion above +4 °C across midnight and a 3-hour silence on the night the clocks go back.
 */
function octoberReadings(sensorId: string) {
  const excursion = { from: Date.parse('2026-10-24T21:30:00Z'), to: Date.parse('2026-10-24T23:00:00Z') };
  const gap = { last: Date.parse('2026-10-25T02:30:00Z'), next: Date.parse('2026-10-25T05:30:00Z') };
  const rows = [];
  // The sensor goes on reporting into November: the end of October is covered.
  for (let ts = OCTOBER.from, i = 0; ts < OCTOBER.to + 60 * MIN; ts += 5 * MIN, i++) {
    if (ts > gap.last && ts < gap.next) continue;
    const value = ts >= excursion.from && ts < excursion.to ? (ts === excursion.from + 30 * MIN ? 7.5 : 6) : 2 + (i % 3);
    rows.push({ deviceId: sensorId, key: 'temperature', ts: new Date(ts), value, readingId: null });
  }
  return { rows, excursion, gap };
}

describe(`HACCP reports over HTTP (${databaseKind})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let owner: TestAccount;
  let viewer: TestAccount;
  let manager: TestAccount;
  let stranger: TestAccount;
  let site: Site;
  let sensorId: string;
  let clock = Date.parse('2026-11-05T09:00:00Z');
  let first: Report;
  const plan = { excursion: { from: 0, to: 0 }, gap: { last: 0, next: 0 } };

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    const organization = `Fromagerie ${Date.now()}`;
    owner = await t.createAccount({ organization, name: 'Camille Responsable' });
    viewer = await t.createAccount({ organization, name: 'Lou Lecteur' });
    manager = await t.createAccount({ organization, name: 'Sam Gérant' });
    await setRole(t, viewer.id, 'viewer');
    await setRole(t, manager.id, 'manager');
    stranger = await t.createAccount();
    site = (await api(owner, 'POST', '/sites', { name: 'Crèmerie Lyon', timezone: 'Europe/Paris' })).json<{ site: Site }>().site;
    sensorId = (await provision(t, owner, 'sensor')).deviceId;
    await api(owner, 'PUT', `/sensor/${sensorId}`, { name: 'Vitrine fromages', siteId: site.id });
    const { rows, excursion, gap } = octoberReadings(sensorId);
    Object.assign(plan, { excursion, gap });
    await t.app.services.telemetry.store(rows, []);
    const rule = await api(owner, 'POST', '/alert-rules', { name: 'Froid positif ≤ +4 °C', sensorId, preset: 'chilled_very_perishable' });
    expect(rule.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  const api = (who: TestAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: who.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('makes the month’s report from the readings: compliance, excursions and gaps as computed by hand', async () => {
    const response = await api(owner, 'POST', '/reports', { siteId: site.id, month: '2026-10' });
    expect(response.statusCode, response.body).toBe(201);
    first = response.json<{ report: Report }>().report;
    const total = (OCTOBER.to - OCTOBER.from) / 1000;
    const out = (plan.excursion.to - plan.excursion.from) / 1000;
    const silent = (plan.gap.next - plan.gap.last) / 1000;
    expect(first).toMatchObject({
      siteId: site.id,
      month: '2026-10',
      createdAt: new Date(clock).toISOString(),
      automatic: false,
      createdBy: owner.id,
      signedBy: null,
      signedAt: null,
    });
    expect(first.summary).toMatchObject({
      siteName: 'Crèmerie Lyon',
      timezone: 'Europe/Paris',
      from: '2026-09-30T22:00:00.000Z',
      to: '2026-10-31T23:00:00.000Z',
      excursionCount: 1,
      excursionSeconds: out,
      noDataSeconds: silent,
      openItems: 0,
    });
    expect(first.summary.units).toEqual([
      {
        sensorId,
        name: 'Vitrine fromages',
        min: null,
        max: 4,
        compliancePercent: Math.floor(((total - out - silent) / total) * 100 * 100) / 100,
        inRangeSeconds: total - out - silent,
        outOfRangeSeconds: out,
        noDataSeconds: silent,
        excursionCount: 1,
        excursionSeconds: out,
        briefExcursionCount: 0,
        briefExcursionSeconds: 0,
        openItems: 0,
      },
    ]);
  });

  it('serves the PDF whose SHA-256 the report gives, in French, and the CSV for a spreadsheet', async () => {
    const pdf = await api(viewer, 'GET', `/reports/${first.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('rapport-haccp_cremerie-lyon_2026-10.pdf');
    const bytes = pdf.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(first.sha256);

    const dir = tempDir('vigie-report-');
    const file = path.join(dir, 'rapport.pdf');
    fs.writeFileSync(file, bytes);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('Crèmerie Lyon');
    expect(text).toContain('Vitrine fromages');
    expect(text).toContain('Octobre 2026');
    expect(text).toContain('1 h 30 min');
    expect(text).toContain(first.id);

    const csv = await api(viewer, 'GET', `/reports/${first.id}/csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv.body).toContain('Vitrine fromages');
    expect(csv.body).toContain(';');
  });

  it('is signed once by an admin or a manager, with who, when and the comment; a viewer may not', async () => {
    const unsigned = await api(viewer, 'GET', `/reports/${first.id}/signed.pdf`);
    expect(unsigned.statusCode).toBe(404);
    expect(unsigned.json<{ message: string }>().message).toBe('Ce rapport n’est pas encore signé : son PDF signé n’existe pas encore.');
    const refused = await api(viewer, 'POST', `/reports/${first.id}/sign`, { comment: 'Vu' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toMatch(/administrateur ou un responsable/);
    expect((await api(viewer, 'POST', '/reports', { siteId: site.id, month: '2026-10' })).statusCode).toBe(403);

    clock += 3600_000;
    const signed = await api(manager, 'POST', `/reports/${first.id}/sign`, { comment: '  Relevés vérifiés, excursion traitée.  ' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json<{ report: Report }>().report).toMatchObject({
      id: first.id,
      sha256: first.sha256,
      signedBy: manager.id,
      signedByName: 'Sam Gérant',
      signedAt: new Date(clock).toISOString(),
      signComment: 'Relevés vérifiés, excursion traitée.',
    });
    // The signed copy: the same report, its « Visa » filled; the original stays byte for byte.
    const signedReport = signed.json<{ report: Report }>().report;
    expect(signedReport.signedSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(signedReport.signedSha256).not.toBe(first.sha256);
    const copy = await api(viewer, 'GET', `/reports/${first.id}/signed.pdf`);
    expect(copy.statusCode).toBe(200);
    expect(copy.headers['content-type']).toBe('application/pdf');
    expect(copy.headers['content-disposition']).toContain('rapport-haccp_cremerie-lyon_2026-10_signe.pdf');
    expect(createHash('sha256').update(copy.rawPayload).digest('hex')).toBe(signedReport.signedSha256);
    const original = await api(viewer, 'GET', `/reports/${first.id}/pdf`);
    expect(createHash('sha256').update(original.rawPayload).digest('hex')).toBe(first.sha256);
    const dir = tempDir('vigie-signed-');
    fs.writeFileSync(path.join(dir, 'signe.pdf'), copy.rawPayload);
    const firstPage = execFileSync('pdftotext', ['-layout', '-f', '1', '-l', '1', path.join(dir, 'signe.pdf'), '-'], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(firstPage).toContain('Sam Gérant (Responsable)');
    expect(firstPage).toContain('Relevés vérifiés, excursion traitée.');
    expect(firstPage).toContain('Signé électroniquement dans Vigie.');
    expect(firstPage).toContain('Exemplaire signé');
    const again = await api(owner, 'POST', `/reports/${first.id}/sign`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe('Ce rapport est déjà signé par Sam Gérant.');
    const listed = (await api(viewer, 'GET', `/reports?siteId=${site.id}`)).json<{ reports: Report[] }>().reports;
    expect(listed.map((report) => report.id)).toEqual([first.id]);
    expect(listed[0]?.signedBy).toBe(manager.id);
  });

  it('keeps the signed report unchanged when the month is made again, and after its readings are purged', async () => {
    clock += 60_000;
    const second = (await api(owner, 'POST', '/reports', { siteId: site.id, month: '2026-10' })).json<{ report: Report }>().report;
    expect(second.id).not.toBe(first.id);
    const listed = (await api(owner, 'GET', `/reports?siteId=${site.id}`)).json<{ reports: Report[] }>().reports;
    expect(listed.map((report) => report.id)).toEqual([second.id, first.id]);
    expect(listed[1]).toMatchObject({ sha256: first.sha256, signedBy: manager.id });

    // The sensor's readings go, as the retention job would take them once past the retention period.
    await t.app.services.telemetry.eraseDevices([sensorId]);
    const readings = await api(owner, 'GET', `/sensor/${sensorId}/readings?from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z`);
    expect(readings.json<{ readings: unknown[] }>().readings).toEqual([]);
    const pdf = await api(owner, 'GET', `/reports/${first.id}/pdf`);
    expect(createHash('sha256').update(pdf.rawPayload).digest('hex')).toBe(first.sha256);
  });

  it('counts the rises shorter than the rule’s delay instead of listing them, and lists what raised an alert or lasted', async () => {
    const freezerSite = (await api(owner, 'POST', '/sites', { name: 'Surgelés Villeurbanne' })).json<{ site: Site }>().site;
    const freezer = (await provision(t, owner, 'sensor')).deviceId;
    await api(owner, 'PUT', `/sensor/${freezer}`, { name: 'Congélateur bac', siteId: freezerSite.id });
    const start = Date.parse('2026-10-10T08:00:00Z');
    // Two door openings of 5 minutes, then a 20-minute failure, on a 10-minute tolerance.
    const warm = new Set([12, 30, 50, 51, 52, 53]);
    const rows = Array.from({ length: 72 }, (_, i) => ({
      deviceId: freezer,
      key: 'temperature',
      ts: new Date(start + i * 5 * MIN),
      value: warm.has(i) ? -16 : -21,
      readingId: null,
    }));
    await t.app.services.telemetry.store(rows, []);
    await api(owner, 'POST', '/alert-rules', { name: 'Surgelés', sensorId: freezer, preset: 'frozen', delaySeconds: 600 });
    const report = (await api(owner, 'POST', '/reports', { siteId: freezerSite.id, month: '2026-10' })).json<{ report: Report }>().report;
    expect(report.summary.units[0]).toMatchObject({
      max: -18,
      excursionCount: 1,
      excursionSeconds: 20 * 60,
      briefExcursionCount: 2,
      briefExcursionSeconds: 10 * 60,
      outOfRangeSeconds: 30 * 60,
    });
  });

  it('keeps the corrective actions of an alert no measured excursion covers: a breach followed by silence', async () => {
    const siteId = (await api(owner, 'POST', '/sites', { name: 'Traiteur Lille' })).json<{ site: Site }>().site.id;
    const device = await provision(t, owner, 'sensor');
    const sensor = device.deviceId;
    await api(owner, 'PUT', `/sensor/${sensor}`, { name: 'Saladier', siteId });
    await api(owner, 'POST', '/alert-rules', {
      name: 'Froid',
      sensorId: sensor,
      condition: { type: 'above', key: 'temperature', threshold: 4 },
    });
    const sent = await sendTelemetry(t, device.accessToken, { ts: Date.parse('2026-10-20T10:00:00Z'), values: { temperature: 15 } });
    expect(sent.statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    const [alert] = (await api(owner, 'GET', `/alerts?sensorId=${sensor}`)).json<{ alerts: { id: string }[] }>().alerts;
    expect(alert).toBeDefined();
    await api(owner, 'POST', `/alerts/${alert?.id}/acknowledge`, { comment: 'Vu en rayon' });
    await api(owner, 'POST', `/alerts/${alert?.id}/actions`, { text: 'Produits jetés, capteur remplacé.' });

    const report = (await api(owner, 'POST', '/reports', { siteId, month: '2026-10' })).json<{ report: Report }>().report;
    expect(report.summary.units[0]).toMatchObject({ name: 'Saladier', excursionCount: 0, openItems: 1 });
    const dir = tempDir('vigie-report-');
    const file = path.join(dir, 'rapport.pdf');
    fs.writeFileSync(file, (await api(owner, 'GET', `/reports/${report.id}/pdf`)).rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('Autres alertes de la période');
    expect(text).toContain('Produits jetés');
    expect((await api(owner, 'GET', `/reports/${report.id}/csv`)).body).toContain('Produits jetés, capteur remplacé.');
  });

  it('is another organization’s secret: 404 on read, download and sign, absent from lists', async () => {
    for (const url of [`/reports/${first.id}`, `/reports/${first.id}/pdf`, `/reports/${first.id}/csv`]) {
      const response = await api(stranger, 'GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json<{ message: string }>().message).toBe('Rapport introuvable.');
    }
    expect((await api(stranger, 'POST', `/reports/${first.id}/sign`, {})).statusCode).toBe(404);
    expect((await api(stranger, 'GET', '/reports')).json<{ reports: Report[] }>().reports).toEqual([]);
    expect((await api(stranger, 'POST', '/reports', { siteId: site.id, month: '2026-10' })).statusCode).toBe(404);
  });

  it('refuses bad requests in French and makes nothing', async () => {
    const before = (await api(owner, 'GET', '/reports')).json<{ reports: Report[] }>().reports.length;
    const cases: [unknown, number, RegExp][] = [
      [{ siteId: site.id, month: '2026-13' }, 400, /AAAA-MM/],
      [{ siteId: site.id, month: '10/2026' }, 400, /AAAA-MM/],
      [{ siteId: site.id }, 400, /mois|month/i],
      [{ siteId: 'pas-un-id', month: '2026-10' }, 400, /UUID/],
      [{ siteId: site.id, month: '2026-12' }, 400, /pas encore commencé/],
      [{ siteId: site.id, month: '2026-10', extra: 1 }, 400, /./],
      [{ siteId: '00000000-0000-4000-8000-000000000000', month: '2026-10' }, 404, /Site introuvable/i],
    ];
    for (const [payload, status, message] of cases) {
      const response = await api(owner, 'POST', '/reports', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    const long = await api(owner, 'POST', `/reports/${first.id}/sign`, { comment: 'x'.repeat(1001) });
    expect(long.statusCode).toBe(400);
    const nul = await api(owner, 'POST', `/reports/${first.id}/sign`, { comment: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    expect((await api(owner, 'GET', '/reports/pas-un-id')).statusCode).toBe(400);
    expect((await api(owner, 'GET', '/reports')).json<{ reports: Report[] }>().reports).toHaveLength(before);
  });

  it('makes last month’s report on the 1st by itself, once, when two runs race', async () => {
    await setSiteCreatedAt(t, '2026-09-01T00:00:00Z', site.id);
    // 1 November 00:10 in Paris: a quarter of an hour's grace first, for readings still queued.
    clock = Date.parse('2026-10-31T23:10:00Z');
    expect(await t.app.services.reports.makeMonthly()).toEqual([]);
    // 00:20.
    clock = Date.parse('2026-10-31T23:20:00Z');
    const made = await Promise.all([t.app.services.reports.makeMonthly(), t.app.services.reports.makeMonthly()]);
    expect(made.flat().filter((report) => report.siteId === site.id)).toHaveLength(1);
    const automatic = (await api(owner, 'GET', `/reports?siteId=${site.id}`))
      .json<{ reports: Report[] }>()
      .reports.filter((report) => report.automatic);
    expect(automatic).toHaveLength(1);
    expect(automatic[0]).toMatchObject({ month: '2026-10', createdBy: null });
    expect(await t.app.services.reports.makeMonthly()).toEqual([]);
  });
});

describe.runIf(databaseUrl)('the monthly report job on two instances of one PostgreSQL', { timeout: 120_000 }, () => {
  it('makes exactly one report per site', async () => {
    const isolated = await isolatedDatabase();
    // 1 December, 08:00 in Paris and 02:00 in Montréal.
    const clock = Date.parse('2026-12-01T07:00:00Z');
    const env = { DATABASE_URL: isolated?.url ?? '' };
    const a = await createTestApp({ env, now: () => new Date(clock) });
    const b = await createTestApp({ env, now: () => new Date(clock) });
    try {
      const owner = await a.createAccount();
      const sites = [await a.app.services.sites.list(owner.organizationId)];
      await a.app.services.sites.create(owner.organizationId, { name: 'Épicerie Nantes', timezone: 'Europe/Paris' });
      await a.app.services.sites.create(owner.organizationId, { name: 'Marché Montréal', timezone: 'America/Montreal' });
      await setSiteCreatedAt(a, '2026-10-01T00:00:00Z');
      const made = await Promise.all([a.app.services.reports.makeMonthly(), b.app.services.reports.makeMonthly()]);
      const all = await a.app.services.reports.list(owner.organizationId);
      expect(sites[0]).toHaveLength(1);
      expect(made.flat()).toHaveLength(3);
      expect(all).toHaveLength(3);
      expect(new Set(all.map((report) => report.siteId)).size).toBe(3);
      expect(all.every((report) => report.month === '2026-11' && report.automatic)).toBe(true);
    } finally {
      await b.close();
      await a.close();
      await isolated?.drop();
    }
  });
});
