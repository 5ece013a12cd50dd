import { randomUUID } from 'node:crypto';
import type { Site, Task, TaskTemplate } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '../../test/sse-client.ts';
import { setRole } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;

/**
 * The live stream carries `task` events (docs/api.md, Flux direct): a task completed or missed,
 * to the people who see its shop only.
 */
describe(`the plan's tasks on the live stream (${databaseKind})`, { timeout: 60_000 }, () => {
  let t: TestApp;
  let baseUrl: string;
  let clock = Date.parse('2026-11-05T06:30:00Z');
  let admin: TestAccount;
  let lilleManager: TestAccount;
  const sites: Record<'lyon' | 'lille', Site> = {} as never;
  const api = (who: TestAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: who.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    ({ baseUrl } = await t.listen());
    const organization = `Chaîne ${randomUUID()}`;
    admin = await t.createAccount({ organization, name: 'Directrice qualité' });
    lilleManager = await t.createAccount({ organization, name: 'Gérante Lille' });
    await setRole(t, lilleManager.id, 'manager');
    for (const city of ['lyon', 'lille'] as const)
      sites[city] = (await api(admin, 'POST', '/sites', { name: `Magasin ${city}` })).json<{ site: Site }>().site;
    expect((await api(admin, 'PUT', `/members/${lilleManager.id}`, { scope: { siteIds: [sites.lille.id] } })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('tells a completed and a missed task to those who see the shop, and nothing of another shop', async () => {
    const template = (
      await api(admin, 'POST', '/task-templates', {
        name: 'Fermeture',
        kind: 'checklist',
        siteIds: [sites.lyon.id, sites.lille.id],
        items: [{ label: 'Rideau baissé', type: 'boolean', expected: true }],
        schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 },
      })
    ).json<{ template: TaskTemplate }>().template;
    const today = (await api(admin, 'GET', '/tasks'))
      .json<{ tasks: Task[] }>()
      .tasks.filter((task) => task.templateId === template.id && task.dueAt === '2026-11-05T07:00:00.000Z');
    const lyon = today.find((task) => task.siteId === sites.lyon.id);
    const lille = today.find((task) => task.siteId === sites.lille.id);
    if (!lyon || !lille) throw new Error('tasks missing');
    const director = await openStream(baseUrl, admin.token);
    const manager = await openStream(baseUrl, lilleManager.token);

    clock = Date.parse(lyon.dueAt) + 5 * MINUTE;
    expect(
      (await api(admin, 'POST', `/tasks/${lyon.id}/complete`, { answers: [{ itemId: lyon.items[0]?.id, value: true }] })).statusCode,
    ).toBe(200);
    const completed = await director.waitFor((event) => event.event === 'task' && event.data.includes(lyon.id));
    expect(JSON.parse(completed.data)).toMatchObject({ action: 'completed', task: { id: lyon.id, status: 'done', result: 'ok' } });

    clock = Date.parse(lille.graceEndsAt) + 1000;
    await t.app.services.tasks.tasks.tick();
    const missed = await manager.waitFor((event) => event.event === 'task' && event.data.includes(lille.id));
    expect(JSON.parse(missed.data)).toMatchObject({ action: 'missed', task: { id: lille.id, status: 'missed' } });
    await director.waitFor((event) => event.event === 'task' && event.data.includes(lille.id));
    expect(manager.events.filter((event) => event.data.includes(lyon.id) || event.data.includes(sites.lyon.id))).toEqual([]);
    await director.close();
    await manager.close();
  });
});
