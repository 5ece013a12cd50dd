import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Report, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, tempDir, type TestAccount, type TestApp } from '../../test/test-app.ts';
import { rankShops, shopFigures } from './consolidated-report.ts';

const MIN = 60_000;
const OCTOBER = { from: Date.parse('2026-09-30T22:00:00Z'), to: Date.parse('2026-10-31T23:00:00Z') };

/** The consolidated report (docs/api.md, Rapports): a region's or the chain's shops ranked, then a page per shop, from their own reports. */
describe(`consolidated monthly report (${databaseKind})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let director: TestAccount;
  let lyonManager: TestAccount;
  const shops: Record<'lyon' | 'grenoble' | 'paris', Site> = {} as Record<'lyon' | 'grenoble' | 'paris', Site>;
  let regionId = '';
  const clock = Date.parse('2026-11-05T09:00:00Z');

  const call = (who: TestAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });

  /** A sensor of the shop held to ≤ +4 °C, reading every 5 min all October: in limits, or warm for its last `warmHours`. */
  async function unitIn(site: Site, name: string, warmHours: number) {
    const sensorId = (await provision(t, director, 'sensor')).deviceId;
    await call(director, 'PUT', `/api/sensor/${sensorId}`, { name, siteId: site.id });
    await call(director, 'POST', '/api/alert-rules', { name: 'Froid ≤ +4 °C', sensorId, preset: 'chilled_very_perishable' });
    const rows = [];
    for (let ts = OCTOBER.from; ts < OCTOBER.to + 60 * MIN; ts += 5 * MIN) {
      rows.push({
        deviceId: sensorId,
        key: 'temperature',
        ts: new Date(ts),
        value: ts > OCTOBER.to - warmHours * 3600_000 ? 9 : 3,
        readingId: null,
      });
    }
    await t.app.services.telemetry.store(rows, []);
  }

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    const organization = `Chaîne ${randomUUID()}`;
    director = await t.createAccount({ organization, name: 'Directrice qualité' });
    lyonManager = await t.createAccount({ organization, name: 'Gérant Lyon' });
    regionId = (await call(director, 'POST', '/api/regions', { name: 'Rhône-Alpes' })).json<{ region: { id: string } }>().region.id;
    for (const [key, name, region] of [
      ['lyon', 'Lyon Part-Dieu', regionId],
      ['grenoble', 'Grenoble', regionId],
      ['paris', 'Paris Bastille', null],
    ] as const) {
      shops[key] = (await call(director, 'POST', '/api/sites', { name, regionId: region })).json<{ site: Site }>().site;
    }
    await call(director, 'PUT', `/api/members/${lyonManager.id}`, { role: 'manager', scope: { siteIds: [shops.lyon.id], regionIds: [] } });
    await unitIn(shops.lyon, 'Vitrine crèmerie', 48);
    await unitIn(shops.paris, 'Chambre froide', 0);
    for (const site of [shops.lyon, shops.paris]) {
      expect((await call(director, 'POST', '/api/reports', { siteId: site.id, month: '2026-10' })).statusCode).toBe(201);
    }
  });
  afterAll(() => t.close());

  async function pdfText(who: TestAccount, query: string): Promise<{ text: string; fileName: string }> {
    const response = await call(who, 'GET', `/api/reports/consolidated?${query}`);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const dir = tempDir('vigie-consolidated-');
    const file = path.join(dir, 'consolide.pdf');
    fs.writeFileSync(file, response.rawPayload);
    const text = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    return { text, fileName: String(response.headers['content-disposition']) };
  }

  it('ranks the chain’s shops, the one without a report and the least compliant first, then gives each its page', async () => {
    const { text, fileName } = await pdfText(director, 'month=2026-10');
    expect(fileName).toContain('rapport-consolide_chaine_2026-10.pdf');
    expect(text).toContain('Rapport HACCP consolidé');
    expect(text).toContain('Toute la chaîne');
    const [first = ''] = text.split('\f');
    const order = ['Grenoble', 'Lyon Part-Dieu', 'Paris Bastille'].map((name) => first.indexOf(name));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(first).toContain('Non établi');
    expect(first).toContain('Non signé');
    // Lyon was warm for its last two days: its own report's figure, not a new one.
    const lyon = (await call(director, 'GET', `/api/reports?siteId=${shops.lyon.id}`)).json<{ reports: Report[] }>().reports[0];
    const compliance = shopFigures(lyon?.summary ?? null).compliance ?? 0;
    expect(compliance).toBeLessThan(100);
    expect(text).toContain('Vitrine crèmerie');
    expect(text).toContain(lyon?.sha256 ?? 'sha256');
    expect(text).toContain('Le rapport de ce mois n’a pas été établi pour ce magasin');
  });

  it('keeps to one region, and to the shops a scoped member sees', async () => {
    const region = await pdfText(director, `month=2026-10&regionId=${regionId}`);
    expect(region.fileName).toContain('rapport-consolide_rhone-alpes_2026-10.pdf');
    expect(region.text).toContain('Région Rhône-Alpes');
    expect(region.text).not.toContain('Paris Bastille');
    const mine = await pdfText(lyonManager, 'month=2026-10');
    expect(mine.text).toContain('Mes magasins');
    expect(mine.text).toContain('Lyon Part-Dieu');
    expect(mine.text).not.toContain('Grenoble');
    expect(mine.text).not.toContain('Paris Bastille');
  });

  it('refuses a bad month and another organization’s region in French', async () => {
    const bad = await call(director, 'GET', '/api/reports/consolidated?month=2026-13');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/AAAA-MM/);
    const elsewhere = await call(director, 'GET', `/api/reports/consolidated?month=2026-10&regionId=${randomUUID()}`);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json<{ message: string }>().message).toBe('Région introuvable.');
  });

  it('ranks without a report first, then by compliance, then by open items', () => {
    const report = (compliance: number, openItems: number) =>
      ({
        summary: {
          units: [{ compliancePercent: compliance, inRangeSeconds: compliance, outOfRangeSeconds: 100 - compliance, noDataSeconds: 0 }],
          excursionCount: 0,
          excursionSeconds: 0,
          noDataSeconds: 0,
          openItems,
        },
      }) as unknown as Report;
    const ranked = rankShops([
      { siteId: 'a', name: 'A', regionName: null, report: report(99, 0) },
      { siteId: 'b', name: 'B', regionName: null, report: null },
      { siteId: 'c', name: 'C', regionName: null, report: report(99, 3) },
      { siteId: 'd', name: 'D', regionName: null, report: report(80, 0) },
    ]);
    expect(ranked.map((shop) => shop.name)).toEqual(['B', 'D', 'C', 'A']);
  });
});
