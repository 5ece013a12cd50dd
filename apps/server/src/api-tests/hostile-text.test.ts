import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Site } from '@vigie/contract';
import { MAX_CODE_POINTS_PER_CHARACTER } from '@vigie/contract/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { longReportFixture } from '../modules/reports/report-fixture.ts';
import { createReportRenderer, RENDER_TIMEOUT_MESSAGE } from '../modules/reports/report-renderer.ts';
import { installationKey, provision } from '../test/device-helpers.ts';
import { setStoredNames } from '../test/test-dal.ts';
import { createTestApp, databaseKind, tempDir, type TestAccount, type TestApp } from '../test/test-app.ts';

/** One hundred letters, each under `marks` combining acute accents. */
const stacked = (marks: number) => Array.from({ length: 100 }, () => `a${'\u0301'.repeat(marks)}`).join('');
const ZALGO = stacked(300);

/** The longest run of combining marks in a text. */
const longestMarkRun = (text: string) => Math.max(0, ...(text.match(/\p{M}+/gu) ?? []).map((run) => [...run].length));

describe(`hostile names and texts (${databaseKind})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let owner: TestAccount;
  let site: Site;
  let sensorId: string;
  let clock = Date.parse('2026-11-05T09:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    owner = await t.createAccount({ name: 'Camille Responsable' });
    site = (await api('POST', '/sites', { name: 'Crèmerie Lyon', timezone: 'Europe/Paris' })).json<{ site: Site }>().site;
    sensorId = (await provision(t, owner, 'sensor')).deviceId;
    await api('PUT', `/sensor/${sensorId}`, { name: 'Vitrine fromages', siteId: site.id });
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: owner.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('refuses, in French and changing nothing, a name whose characters stack hundreds of marks or whose bytes overflow', async () => {
    const sites = (await api('GET', '/sites')).body;
    for (const name of [ZALGO, 'b' + '\u0301'.repeat(40), '👨‍👩‍👧‍👦'.repeat(60)]) {
      const created = await api('POST', '/sites', { name, timezone: 'Europe/Paris' });
      expect(created.statusCode, name.slice(0, 20)).toBe(400);
      expect(created.json<{ message: string }>().message).toMatch(/caractère surchargé|octets au plus/);
      const renamed = await api('PUT', `/sensor/${sensorId}`, { name });
      expect(renamed.statusCode).toBe(400);
      const rule = await api('POST', '/alert-rules', { name, sensorId, preset: 'chilled_very_perishable' });
      expect(rule.statusCode).toBe(400);
    }
    const provisioned = await t.app.inject({
      method: 'POST',
      url: '/api/devices/provision',
      payload: { installationKey: await installationKey(t, owner), serial: 'SN-ZALGO', kind: 'sensor', site: `a${'\u0301'.repeat(99)}` },
    });
    expect(provisioned.statusCode).toBe(400);
    expect(provisioned.json<{ message: string }>().message).toContain('caractère surchargé');
    expect((await api('GET', '/sites')).body).toBe(sites);
    expect((await api('GET', `/sensor/${sensorId}`)).json<{ sensor: { name: string } }>().sensor.name).toBe('Vitrine fromages');
  });

  it('still takes every real name: accents, decomposed letters, emoji sequences, other scripts, 100 characters', async () => {
    for (const name of [
      'Crèmerie — rayon frais 🧀',
      'Phở Hà Nội'.normalize('NFD'),
      '👩🏽‍❤️‍💋‍👨🏿 Bar à vins',
      '冷蔵庫'.repeat(33),
      'é'.normalize('NFD').repeat(100),
      '🇫🇷'.repeat(50),
    ]) {
      const created = await api('POST', '/sites', { name, timezone: 'Europe/Paris' });
      expect(created.statusCode, `${name}: ${created.body}`).toBe(201);
      expect(created.json<{ site: Site }>().site.name).toBe(name);
    }
  });

  it('makes the report of a site and a sensor stored with such names, tamed, while the API keeps answering', async () => {
    await setStoredNames(t, { siteId: site.id, site: ZALGO, sensorId, sensor: ZALGO });
    const order: string[] = [];
    const report = api('POST', '/reports', { siteId: site.id, month: '2026-10' }).then((response) => {
      order.push('report');
      return response;
    });
    // While the report is laid out, health answers: it does not wait for the report.
    let answered = 0;
    while (!order.includes('report')) {
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      if (!order.includes('report')) answered += 1;
      expect(health.statusCode).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const response = await report;
    expect(response.statusCode, response.body).toBe(201);
    expect(answered).toBeGreaterThan(0);
    const id = response.json<{ report: { id: string } }>().report.id;
    const pdf = await api('GET', `/reports/${id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const file = path.join(tempDir(), 'hostile.pdf');
    fs.writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Relevé de températures');
    expect(longestMarkRun(text)).toBeLessThan(MAX_CODE_POINTS_PER_CHARACTER);
    clock += 1;
  });
});

describe('the report renderer', { timeout: 60_000 }, () => {
  it('renders in a worker thread: the server’s own thread keeps turning meanwhile', async () => {
    const renderer = createReportRenderer({ logger: { warn: () => undefined } });
    try {
      let done = false;
      const rendering = renderer.render(longReportFixture()).finally(() => (done = true));
      let turns = 0;
      while (!done) {
        await new Promise((resolve) => setImmediate(resolve));
        turns += 1;
      }
      const { pdf, csv } = await rendering;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(csv.length).toBeGreaterThan(0);
      // Rendered in the process, the layout would run in one turn of the event loop.
      expect(turns).toBeGreaterThan(50);
    } finally {
      await renderer.close();
    }
  });

  it('stops a rendering over its time budget with a French 503, and renders the next one afresh', async () => {
    const renderer = createReportRenderer({ logger: { warn: () => undefined }, timeoutMs: 1 });
    try {
      const failure = await renderer.render(longReportFixture()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ statusCode: 503, message: RENDER_TIMEOUT_MESSAGE });
      await expect(renderer.render(longReportFixture())).rejects.toMatchObject({ statusCode: 503 });
    } finally {
      await renderer.close();
    }
    const generous = createReportRenderer({ logger: { warn: () => undefined } });
    try {
      expect((await generous.render(longReportFixture())).pdf.length).toBeGreaterThan(1000);
    } finally {
      await generous.close();
    }
  });

  it('refuses content over its size budget before any work, in French', async () => {
    const renderer = createReportRenderer({ logger: { warn: () => undefined }, maxContentBytes: 1000 });
    try {
      await expect(renderer.render(longReportFixture())).rejects.toMatchObject({
        statusCode: 422,
        message: expect.stringContaining('trop volumineux'),
      });
    } finally {
      await renderer.close();
    }
  });
});
