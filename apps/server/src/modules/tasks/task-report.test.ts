import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Process, Report, Site, Task, TaskTemplate } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKind, tempDir, type TestAccount, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201a5f1b2d10000000049454e44ae426082',
  'hex',
);

/**
 * The monthly report's section « Plan de maîtrise sanitaire » (docs/api.md): a month with tasks
 * done, late, missed and answered out of their limits, a photo, and a cooling failed by the clock,
 * read in the PDF as an inspector reads it and in the CSV.
 */
describe(`the food-safety plan in the monthly report (${databaseKind})`, { timeout: 60_000 }, () => {
  let t: TestApp;
  // 12 October 2026, 6 h in Lyon (UTC+2).
  let clock = Date.parse('2026-10-12T04:00:00Z');
  let admin: TestAccount;
  let site: Site;
  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: admin.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    admin = await t.createAccount({ organization: `Plan ${randomUUID()}`, name: 'Claire Qualité' });
    site = (await api('POST', '/sites', { name: 'Traiteur Lyon' })).json<{ site: Site }>().site;
  });
  afterAll(() => t.close());

  it('lists every task due with its state, who and when, its findings and photos, and each process with its result', async () => {
    const template = (
      await api('POST', '/task-templates', {
        name: 'Ronde d’ouverture',
        kind: 'checklist',
        siteIds: [site.id],
        items: [
          { label: 'Température de la vitrine', type: 'number', unit: '°C', min: 0, max: 4 },
          { label: 'Photo de la vitrine', type: 'photo', required: false },
        ],
        schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 },
      })
    ).json<{ template: TaskTemplate }>().template;
    const tasks = async () =>
      (await api('GET', `/tasks?siteId=${site.id}`)).json<{ tasks: Task[] }>().tasks.filter((task) => task.templateId === template.id);
    const answer = (task: Task, temperature: number, photo?: string) =>
      api('POST', `/tasks/${task.id}/complete`, {
        answers: [{ itemId: task.items[0]?.id, value: temperature }, ...(photo ? [{ itemId: task.items[1]?.id, value: photo }] : [])],
      });

    const [day12, day13] = await tasks();
    if (!day12 || !day13) throw new Error('tasks missing');
    // The 12th: done in its window, with a photo.
    clock = Date.parse(day12.dueAt) + 5 * MINUTE;
    const boundary = `----vigie${randomUUID()}`;
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/tasks/${day12.id}/photos`,
      headers: { ...admin.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="vitrine.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    const photo = upload.json<{ photo: { id: string; sha256: string } }>().photo;
    expect((await answer(day12, 3, photo.id)).statusCode).toBe(200);
    // The 13th: late, and out of its limits; the alert gets its corrective action.
    clock = Date.parse(day13.windowEndsAt) + 10 * MINUTE;
    const late = (await answer(day13, 7.5)).json<{ task: Task }>().task;
    expect(late).toMatchObject({ status: 'late', result: 'nonconforming' });
    expect(
      (
        await api('POST', `/alerts/${late.alertId}/actions`, {
          kind: 'products_moved',
          fate: { outcome: 'destroyed', product: 'Salades composées', quantity: { value: 4, unit: 'kg' } },
        })
      ).statusCode,
    ).toBe(201);
    // The 14th: nobody; the clock makes it and then misses it.
    clock = Date.parse('2026-10-14T07:30:00Z');
    await t.app.services.tasks.tasks.tick();
    // A cooling that never reaches +10 °C.
    const cooling = (
      await api('POST', '/processes', { kind: 'cooling', siteId: site.id, product: 'Blanquette de veau', temperature: 74 })
    ).json<{
      process: Process;
    }>().process;
    clock += 60 * MINUTE;
    await api('POST', `/processes/${cooling.id}/readings`, { temperature: 31 });
    clock += 61 * MINUTE;
    await t.app.services.tasks.tasks.tick();
    await t.app.services.tasks.processes.tick();
    const day14 = (await tasks()).find((task) => task.dueAt === '2026-10-14T06:00:00.000Z');
    expect(day14?.status).toBe('missed');

    // The October report, made in November: the plan's figures and section.
    clock = Date.parse('2026-11-02T09:00:00Z');
    const made = await api('POST', '/reports', { siteId: site.id, month: '2026-10' });
    expect(made.statusCode, made.body).toBe(201);
    const report = made.json<{ report: Report }>().report;
    // The 12th to the 31st at 8 h: 20 tasks due, the last ones missed by nobody's clock yet (the job ran on the 14th).
    expect(report.summary.tasks).toMatchObject({ done: 1, late: 1, nonconforming: 1 });
    expect(report.summary.tasks?.missed).toBeGreaterThanOrEqual(1);
    expect(report.summary.tasks?.due).toBeGreaterThanOrEqual(3);

    const pdf = await api('GET', `/reports/${report.id}/pdf`);
    const dir = tempDir('vigie-plan-');
    const file = path.join(dir, 'rapport.pdf');
    fs.writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('Plan de maîtrise sanitaire');
    expect(text).toContain('Ronde d’ouverture');
    expect(text).toContain('En retard, non conforme');
    expect(text).toContain('Manquée');
    expect(text).toContain('Température de la vitrine : 7,5 °C');
    expect(text).toContain('Claire Qualité');
    expect(text).toContain(photo.sha256.slice(0, 16));
    expect(text).toContain('Produits transférés dans un autre meuble');
    expect(text).toContain('Refroidissement rapide — Blanquette de veau');
    expect(text).toContain('En échec');
    expect(text).toContain('+10 °C non atteints en 2 h');

    const csv = (await api('GET', `/reports/${report.id}/csv`)).body;
    expect(csv).toContain('Plan de maîtrise sanitaire — tâches');
    expect(csv).toContain(photo.sha256);
    expect(csv).toContain('Plan de maîtrise sanitaire — refroidissements et maintiens au chaud');
    expect(csv).toContain('Blanquette de veau');
  });
});
