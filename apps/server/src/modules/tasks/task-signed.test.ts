import { randomUUID } from 'node:crypto';
import type { Process, Report, Site, Task, TaskTemplate } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;

/**
 * A signed report is never rewritten (decision 0046), the food-safety plan included: once the
 * report covering a task or a process is signed, no route changes them, and the signed PDF stays
 * byte for byte; what falls after the signed period goes on as usual.
 */
describe(`the plan of a signed period cannot be rewritten (${databaseKind})`, { timeout: 60_000 }, () => {
  let t: TestApp;
  // 12 October 2026, 8 h 20 in Lyon: the opening round is due since 8 h, its grace runs to 9 h 30.
  let clock = Date.parse('2026-10-12T06:20:00Z');
  let admin: TestAccount;
  let site: Site;
  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: admin.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    admin = await t.createAccount({ organization: `Registre ${randomUUID()}`, name: 'Claire Qualité' });
    site = (await api('POST', '/sites', { name: 'Traiteur Lyon' })).json<{ site: Site }>().site;
  });
  afterAll(() => t.close());

  it('refuses to complete, photograph or follow what a signed report covers, and keeps the signed PDF', async () => {
    clock = Date.parse('2026-10-12T05:00:00Z');
    const template = (
      await api('POST', '/task-templates', {
        name: 'Ronde d’ouverture',
        kind: 'checklist',
        siteIds: [site.id],
        items: [{ label: 'Vitrine à 4 °C ou moins', type: 'boolean', expected: true }],
        schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 },
      })
    ).json<{ template: TaskTemplate }>().template;
    const [today, tomorrow] = (await api('GET', `/tasks?siteId=${site.id}`))
      .json<{ tasks: Task[] }>()
      .tasks.filter((task) => task.templateId === template.id);
    if (!today || !tomorrow) throw new Error('tasks missing');
    // A hot holding started at 7 h 30.
    clock = Date.parse('2026-10-12T05:30:00Z');
    const holding = (await api('POST', '/processes', { kind: 'hot_holding', siteId: site.id, product: 'Gratin', temperature: 70 })).json<{
      process: Process;
    }>().process;

    // 8 h 20: the month so far is reported and signed.
    clock = Date.parse('2026-10-12T06:20:00Z');
    const made = await api('POST', '/reports', { siteId: site.id, month: '2026-10' });
    expect(made.statusCode, made.body).toBe(201);
    const report = made.json<{ report: Report }>().report;
    expect((await api('POST', `/reports/${report.id}/sign`, { comment: 'Vu' })).statusCode).toBe(200);
    const pdf = (await api('GET', `/reports/${report.id}/pdf`)).rawPayload;

    clock += 5 * MINUTE;
    const complete = await api('POST', `/tasks/${today.id}/complete`, { answers: [{ itemId: today.items[0]?.id, value: true }] });
    expect(complete.statusCode).toBe(409);
    expect(complete.json<{ message: string }>().message).toContain('rapport signé');
    const reading = await api('POST', `/processes/${holding.id}/readings`, { temperature: 68 });
    expect(reading.statusCode).toBe(409);
    expect((await api('POST', `/processes/${holding.id}/end`)).statusCode).toBe(409);
    const backdated = await api('POST', '/processes', {
      kind: 'cooling',
      siteId: site.id,
      product: 'Rôti',
      temperature: 72,
      startedAt: new Date(Date.parse('2026-10-12T06:00:00Z')).toISOString(),
    });
    expect(backdated.statusCode).toBe(409);
    expect((await api('GET', `/tasks/${today.id}`)).json<{ task: Task }>().task.status).toBe('pending');
    expect(
      (await api('GET', '/processes')).json<{ processes: Process[] }>().processes.find((row) => row.id === holding.id)?.readings,
    ).toHaveLength(1);

    // After the signed period, the plan goes on.
    clock = Date.parse(tomorrow.dueAt) + 5 * MINUTE;
    const next = await api('POST', `/tasks/${tomorrow.id}/complete`, { answers: [{ itemId: tomorrow.items[0]?.id, value: true }] });
    expect(next.json<{ task: Task }>().task.status).toBe('done');
    expect((await api('POST', '/processes', { kind: 'cooling', siteId: site.id, product: 'Rôti', temperature: 72 })).statusCode).toBe(201);
    expect((await api('GET', `/reports/${report.id}/pdf`)).rawPayload.equals(pdf)).toBe(true);
  });
});
