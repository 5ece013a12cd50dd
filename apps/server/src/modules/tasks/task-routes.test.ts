import { randomUUID } from 'node:crypto';
import type { Alert, Process, Site, Task, TaskTemplate } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { setRole } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;
/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201a5f1b2d10000000049454e44ae426082',
  'hex',
);

function multipart(bytes: Buffer, filename = 'photo.png', type = 'image/png'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----vigie${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The opening round of a shop: a fridge read by hand (0 to 4 °C), a yes/no expected yes, a choice. */
const opening = (siteIds?: string[]) => ({
  name: 'Ouverture du magasin',
  kind: 'checklist',
  ...(siteIds ? { siteIds } : {}),
  items: [
    { label: 'Température de la chambre froide', type: 'number', unit: '°C', min: 0, max: 4 },
    { label: 'Sols et plans de travail propres', type: 'boolean', expected: true },
    { label: 'État des joints', type: 'choice', options: ['Bon', 'Usé', 'Déchiré'], failing: ['Déchiré'] },
    { label: 'Remarque', type: 'text', required: false },
  ],
  schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 },
  severity: 'warning',
});

describe(`the food-safety plan over HTTP: templates, tasks, processes (${databaseKind})`, { timeout: 60_000 }, () => {
  let t: TestApp;
  // 5 November 2026, 7 h in Paris (UTC+1).
  let clock = Date.parse('2026-11-05T06:00:00Z');
  let admin: TestAccount;
  let manager: TestAccount;
  let viewer: TestAccount;
  let scoped: TestAccount;
  let stranger: TestAccount;
  let site: Site;
  let lille: Site;

  const api = (who: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: who.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const tick = () => t.app.services.tasks.tasks.tick();
  const processTick = () => t.app.services.tasks.processes.tick();
  const tasksOf = async (who: TestAccount, query = '') => (await api(who, 'GET', `/tasks${query}`)).json<{ tasks: Task[] }>().tasks;
  const answersFor = (task: Task, values: [number, boolean, string]) =>
    task.items.slice(0, 3).map((item, i) => ({ itemId: item.id, value: values[i] }));

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    const organization = `Chaîne ${randomUUID()}`;
    admin = await t.createAccount({ organization, name: 'Directrice qualité' });
    manager = await t.createAccount({ organization, name: 'Responsable Lyon' });
    viewer = await t.createAccount({ organization, name: 'Vendeur' });
    scoped = await t.createAccount({ organization, name: 'Responsable Lille' });
    stranger = await t.createAccount();
    await setRole(t, manager.id, 'manager');
    await setRole(t, viewer.id, 'viewer');
    await setRole(t, scoped.id, 'manager');
    site = (await api(admin, 'GET', '/sites')).json<{ sites: Site[] }>().sites[0] as Site;
    lille = (await api(admin, 'POST', '/sites', { name: 'Lille Centre' })).json<{ site: Site }>().site;
    expect((await api(admin, 'PUT', `/members/${scoped.id}`, { scope: { siteIds: [lille.id] } })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('makes a template’s tasks of the next day in each site it covers, at the site’s local time, listed by due time', async () => {
    const created = await api(manager, 'POST', '/task-templates', opening([site.id]));
    expect(created.statusCode, created.body).toBe(201);
    const template = created.json<{ template: TaskTemplate }>().template;
    expect(template.items.every((item) => typeof item.id === 'string')).toBe(true);
    expect(template).toMatchObject({ locked: false, siteIds: [site.id], regionIds: [], severity: 'warning' });
    const tasks = (await tasksOf(manager, `?siteId=${site.id}`)).filter((task) => task.templateId === template.id);
    // 8 h in Paris is 7 h UTC in November: today's and tomorrow's.
    expect(tasks.map((task) => task.dueAt)).toEqual(['2026-11-05T07:00:00.000Z', '2026-11-06T07:00:00.000Z']);
    expect(tasks[0]).toMatchObject({
      siteId: site.id,
      status: 'pending',
      result: null,
      windowEndsAt: '2026-11-05T08:00:00.000Z',
      graceEndsAt: '2026-11-05T08:30:00.000Z',
      alertId: null,
    });
    // Another organization sees neither the template nor its tasks.
    expect((await api(stranger, 'GET', `/task-templates/${template.id}`)).statusCode).toBe(404);
    expect((await api(stranger, 'GET', `/tasks/${tasks[0]?.id}`)).json()).toEqual({ message: 'Tâche introuvable.' });
    expect(await tasksOf(stranger)).toEqual([]);
  });

  it('refuses a bad template with a French message and stores nothing; a viewer may not manage the plan', async () => {
    const before = (await api(admin, 'GET', '/task-templates')).json<{ templates: TaskTemplate[] }>().templates.length;
    const bad = [
      { ...opening(), schedule: { frequency: 'daily', windowMinutes: 60, graceMinutes: 30 } },
      { ...opening(), schedule: { frequency: 'weekly', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 } },
      { ...opening(), schedule: { frequency: 'daily', times: ['25:00'], windowMinutes: 60, graceMinutes: 30 } },
      { ...opening(), items: [] },
      { ...opening(), items: [{ label: 'Joints', type: 'choice', options: ['Bon'], failing: ['Déchiré'] }] },
      { ...opening(), siteIds: [randomUUID()] },
    ];
    for (const payload of bad) {
      const response = await api(admin, 'POST', '/task-templates', payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/[a-zé]/);
    }
    const refused = await api(viewer, 'POST', '/task-templates', opening());
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toContain('Seuls un administrateur ou un responsable');
    // Only an admin who sees the whole organization locks a template.
    expect((await api(manager, 'POST', '/task-templates', { ...opening(), locked: true })).statusCode).toBe(403);
    expect((await api(admin, 'GET', '/task-templates')).json<{ templates: TaskTemplate[] }>().templates).toHaveLength(before);
  });

  it('takes the answers once, within the window: done and conforming; before its time or twice, 409', async () => {
    const template = (await api(admin, 'POST', '/task-templates', { ...opening([site.id]), name: 'Fermeture' })).json<{
      template: TaskTemplate;
    }>().template;
    const [today, tomorrow] = (await tasksOf(manager)).filter((task) => task.templateId === template.id);
    if (!today || !tomorrow) throw new Error('tasks missing');
    clock = Date.parse(today.dueAt) + 10 * MINUTE;
    const early = await api(manager, 'POST', `/tasks/${tomorrow.id}/complete`, { answers: answersFor(tomorrow, [3, true, 'Bon']) });
    expect(early.statusCode).toBe(409);
    expect(early.json<{ message: string }>().message).toContain('pas encore due');
    expect((await api(viewer, 'POST', `/tasks/${today.id}/complete`, { answers: answersFor(today, [3, true, 'Bon']) })).statusCode).toBe(
      403,
    );
    // Bad answers change nothing.
    const unknownItem = await api(manager, 'POST', `/tasks/${today.id}/complete`, { answers: [{ itemId: randomUUID(), value: 3 }] });
    expect(unknownItem.statusCode).toBe(400);
    const missing = await api(manager, 'POST', `/tasks/${today.id}/complete`, { answers: answersFor(today, [3, true, 'Bon']).slice(0, 2) });
    expect(missing.json<{ message: string }>().message).toContain('Répondez à');
    const absurd = await api(manager, 'POST', `/tasks/${today.id}/complete`, { answers: answersFor(today, [1e9, true, 'Bon']) });
    expect(absurd.statusCode).toBe(400);
    expect(absurd.json<{ message: string }>().message).toContain('hors des valeurs possibles');
    const notAnOption = await api(manager, 'POST', `/tasks/${today.id}/complete`, { answers: answersFor(today, [3, true, 'Neuf']) });
    expect(notAnOption.statusCode).toBe(400);
    expect((await api(manager, 'GET', `/tasks/${today.id}`)).json<{ task: Task }>().task.status).toBe('pending');

    const done = await api(manager, 'POST', `/tasks/${today.id}/complete`, {
      answers: answersFor(today, [3.5, true, 'Usé']),
      comment: 'RAS',
    });
    expect(done.statusCode, done.body).toBe(200);
    const task = done.json<{ task: Task }>().task;
    expect(task).toMatchObject({
      status: 'done',
      result: 'ok',
      completedBy: manager.id,
      completedByName: 'Responsable Lyon',
      comment: 'RAS',
    });
    expect(task.completedAt).toBe(new Date(clock).toISOString());
    expect(task.answers?.map((answer) => answer.conforming)).toEqual([true, true, true, true]);
    const again = await api(admin, 'POST', `/tasks/${today.id}/complete`, { answers: answersFor(today, [3.5, true, 'Bon']) });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toContain('déjà été remplie par Responsable Lyon');
  });

  it('opens an alert at once for an answer out of its limits, naming the task, with no sensor', async () => {
    const template = (
      await api(admin, 'POST', '/task-templates', { ...opening([site.id]), name: 'Relevé de midi', severity: 'critical' })
    ).json<{ template: TaskTemplate }>().template;
    const [today] = (await tasksOf(manager)).filter((task) => task.templateId === template.id);
    if (!today) throw new Error('task missing');
    clock = Date.parse(today.dueAt) + MINUTE;
    const response = await api(manager, 'POST', `/tasks/${today.id}/complete`, { answers: answersFor(today, [9.5, false, 'Déchiré']) });
    expect(response.statusCode, response.body).toBe(200);
    const task = response.json<{ task: Task }>().task;
    expect(task.result).toBe('nonconforming');
    expect(task.answers?.slice(0, 3).map((answer) => answer.conforming)).toEqual([false, false, false]);
    expect(task.alertId).toBeTruthy();
    const alert = (await api(manager, 'GET', `/alerts/${task.alertId}`)).json<{ alert: Alert }>().alert;
    expect(alert).toMatchObject({ taskId: task.id, sensorId: null, ruleId: null, siteId: site.id, status: 'open', severity: 'critical' });
    expect(alert.events[0]?.text).toContain('Relevé de midi');
    expect(alert.events[0]?.text).toContain('9,5');
    // Resolved only after a corrective action, like any alert.
    expect((await api(manager, 'POST', `/alerts/${alert.id}/resolve`, {})).statusCode).toBe(409);
    expect((await api(manager, 'POST', `/alerts/${alert.id}/actions`, { text: 'Produits transférés, technicien appelé' })).statusCode).toBe(
      201,
    );
    expect((await api(manager, 'POST', `/alerts/${alert.id}/resolve`, {})).statusCode).toBe(200);
  });

  it('counts an answer within the grace as late, and turns a task nobody did missed by the clock, with one alert', async () => {
    const template = (await api(admin, 'POST', '/task-templates', { ...opening([site.id]), name: 'Contrôle nuisibles' })).json<{
      template: TaskTemplate;
    }>().template;
    const [today, tomorrow] = (await tasksOf(manager)).filter((task) => task.templateId === template.id);
    if (!today || !tomorrow) throw new Error('tasks missing');
    clock = Date.parse(today.windowEndsAt) + 5 * MINUTE;
    const late = await api(manager, 'POST', `/tasks/${today.id}/complete`, { answers: answersFor(today, [2, true, 'Bon']) });
    expect(late.json<{ task: Task }>().task).toMatchObject({ status: 'late', result: 'ok' });

    // Tomorrow's: nobody answers; the clock turns it missed within its tick after the grace, once.
    clock = Date.parse(tomorrow.graceEndsAt) - 1000;
    await tick();
    expect((await api(manager, 'GET', `/tasks/${tomorrow.id}`)).json<{ task: Task }>().task.status).toBe('pending');
    clock = Date.parse(tomorrow.graceEndsAt) + 1000;
    await Promise.all([tick(), tick()]);
    await tick();
    const missed = (await api(manager, 'GET', `/tasks/${tomorrow.id}`)).json<{ task: Task }>().task;
    expect(missed.status).toBe('missed');
    const alerts = (await api(manager, 'GET', '/alerts?status=active'))
      .json<{ alerts: Alert[] }>()
      .alerts.filter((alert) => alert.taskId === tomorrow.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.id).toBe(missed.alertId);
    expect(alerts[0]?.events[0]?.text).toContain('non faite');
    const after = await api(manager, 'POST', `/tasks/${tomorrow.id}/complete`, { answers: answersFor(tomorrow, [2, true, 'Bon']) });
    expect(after.statusCode).toBe(409);
    expect(after.json<{ message: string }>().message).toContain('manquée');
    // The next day's task exists by then: the clock made it.
    const next = (await tasksOf(manager)).filter((task) => task.templateId === template.id);
    expect(next.length).toBeGreaterThanOrEqual(3);
  });

  it('keeps a photo whose type it reads from its bytes, and names it as the answer of a photo item', async () => {
    const template = (
      await api(admin, 'POST', '/task-templates', {
        name: 'Plan de nettoyage – laboratoire',
        kind: 'cleaning',
        siteIds: [site.id],
        items: [{ label: 'Photo du plan de travail', type: 'photo' }],
        schedule: { frequency: 'once', dueAt: new Date(clock + MINUTE).toISOString(), windowMinutes: 120, graceMinutes: 60 },
      })
    ).json<{ template: TaskTemplate }>().template;
    const [task] = (await tasksOf(manager)).filter((row) => row.templateId === template.id);
    if (!task) throw new Error('task missing');
    clock += 2 * MINUTE;
    const upload = (bytes: Buffer, who = manager) => {
      const sent = multipart(bytes);
      return t.app.inject({
        method: 'POST',
        url: `/api/tasks/${task.id}/photos`,
        payload: sent.payload,
        headers: { ...sent.headers, ...who.auth },
      });
    };
    const created = await upload(PNG);
    expect(created.statusCode, created.body).toBe(201);
    const photo = created.json<{ photo: { id: string; sha256: string; size: number } }>().photo;
    expect(photo.size).toBe(PNG.length);
    expect(photo.sha256).toMatch(/^[0-9a-f]{64}$/);
    const served = await api(viewer, 'GET', `/tasks/${task.id}/photos/${photo.id}`);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // Not an image, or too big: refused, nothing kept.
    expect((await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).statusCode).toBe(415);
    expect((await upload(Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]))).statusCode).toBe(413);
    expect((await upload(PNG, viewer)).statusCode).toBe(403);
    expect((await api(manager, 'POST', `/tasks/${task.id}/photos`, { file: 'x' })).statusCode).toBe(415);
    // The answer names the photo; another id is refused.
    expect(
      (await api(manager, 'POST', `/tasks/${task.id}/complete`, { answers: [{ itemId: task.items[0]?.id, value: randomUUID() }] }))
        .statusCode,
    ).toBe(400);
    const done = await api(manager, 'POST', `/tasks/${task.id}/complete`, { answers: [{ itemId: task.items[0]?.id, value: photo.id }] });
    expect(done.json<{ task: Task }>().task).toMatchObject({ status: 'done', result: 'ok' });
    expect((await api(stranger, 'GET', `/tasks/${task.id}/photos/${photo.id}`)).json()).toEqual({ message: 'Photo introuvable.' });
  });

  it('holds a member who sees one shop to its tasks and its own templates', async () => {
    const mine = await api(scoped, 'POST', '/task-templates', opening([lille.id]));
    expect(mine.statusCode, mine.body).toBe(201);
    const theirs = (await tasksOf(scoped)).map((task) => task.siteId);
    expect(theirs.length).toBeGreaterThan(0);
    expect(new Set(theirs)).toEqual(new Set([lille.id]));
    const lyonTask = (await tasksOf(admin, `?siteId=${site.id}`)).find((task) => task.status === 'pending');
    if (!lyonTask) throw new Error('no pending task in Lyon');
    expect((await api(scoped, 'GET', `/tasks/${lyonTask.id}`)).json()).toEqual({ message: 'Tâche introuvable.' });
    expect((await api(scoped, 'POST', `/tasks/${lyonTask.id}/complete`, { answers: [] })).statusCode).toBe(404);
    expect((await api(scoped, 'POST', '/task-templates', opening([site.id]))).statusCode).toBe(403);
    expect((await api(scoped, 'POST', '/task-templates', opening())).statusCode).toBe(403);
    const visible = (await api(scoped, 'GET', '/task-templates')).json<{ templates: TaskTemplate[] }>().templates;
    expect(visible.every((template) => template.siteIds.includes(lille.id) || template.siteIds.length === 0)).toBe(true);
    const lyonTemplate = lyonTask.templateId;
    expect((await api(scoped, 'GET', `/task-templates/${lyonTemplate}`)).statusCode).toBe(404);
    expect((await api(scoped, 'DELETE', `/task-templates/${lyonTemplate}`)).statusCode).toBe(404);
    expect(
      (await api(scoped, 'POST', '/processes', { kind: 'cooling', siteId: site.id, product: 'Rôti', temperature: 70 })).statusCode,
    ).toBe(404);
  });

  it('locks the organization’s templates to its whole-organization admins; an edit makes the coming tasks again', async () => {
    const locked = (
      await api(admin, 'POST', '/task-templates', { ...opening(), name: 'Étalonnage des thermomètres', kind: 'thermometer', locked: true })
    ).json<{
      template: TaskTemplate;
    }>().template;
    expect(locked.locked).toBe(true);
    // Every site, Lille included.
    const sites = new Set((await tasksOf(admin)).filter((task) => task.templateId === locked.id).map((task) => task.siteId));
    expect(sites).toEqual(new Set([site.id, lille.id]));
    const edit = { ...opening(), name: 'Étalonnage des thermomètres (glace fondante)', kind: 'thermometer', locked: true };
    expect((await api(manager, 'PUT', `/task-templates/${locked.id}`, edit)).statusCode).toBe(403);
    expect((await api(scoped, 'PUT', `/task-templates/${locked.id}`, edit)).statusCode).toBe(403);
    const edited = await api(admin, 'PUT', `/task-templates/${locked.id}`, { ...edit, schedule: { ...edit.schedule, times: ['09:30'] } });
    expect(edited.statusCode, edited.body).toBe(200);
    const upcoming = (await tasksOf(admin)).filter((task) => task.templateId === locked.id && Date.parse(task.dueAt) > clock);
    expect(upcoming.length).toBeGreaterThan(0);
    expect(upcoming.every((task) => task.name === edit.name)).toBe(true);
    expect((await api(admin, 'DELETE', `/task-templates/${locked.id}`)).statusCode).toBe(204);
    expect((await tasksOf(admin)).filter((task) => task.templateId === locked.id && Date.parse(task.dueAt) > clock)).toEqual([]);
  });

  it('follows a cooling to +10 °C within two hours, and fails one by the clock with an alert naming its product', async () => {
    const start = (payload: object) => api(manager, 'POST', '/processes', { kind: 'cooling', siteId: site.id, ...payload });
    const tooCold = await start({ product: 'Blanquette', temperature: 40 });
    expect(tooCold.statusCode).toBe(400);
    expect(tooCold.json<{ message: string }>().message).toContain('+63');
    expect((await start({ product: 'Blanquette', temperature: 70, startedAt: new Date(clock + 3600_000).toISOString() })).statusCode).toBe(
      400,
    );
    expect((await api(viewer, 'POST', '/processes', { kind: 'cooling', siteId: site.id, product: 'X', temperature: 70 })).statusCode).toBe(
      403,
    );

    const good = (await start({ product: 'Blanquette de veau', temperature: 72 })).json<{ process: Process }>().process;
    expect(good).toMatchObject({ status: 'running', readings: [{ temperature: 72 }] });
    expect(Date.parse(good.deadline) - Date.parse(good.startedAt)).toBe(120 * MINUTE);
    clock += 50 * MINUTE;
    expect(
      (await api(manager, 'POST', `/processes/${good.id}/readings`, { temperature: 30 })).json<{ process: Process }>().process.status,
    ).toBe('running');
    clock += 40 * MINUTE;
    const ok = (await api(manager, 'POST', `/processes/${good.id}/readings`, { temperature: 9 })).json<{ process: Process }>().process;
    expect(ok).toMatchObject({ status: 'ok', alertId: null });
    expect((await api(manager, 'POST', `/processes/${good.id}/readings`, { temperature: 5 })).statusCode).toBe(409);

    const slow = (await start({ product: 'Rôti de porc', temperature: 80 })).json<{ process: Process }>().process;
    clock += 60 * MINUTE;
    await api(manager, 'POST', `/processes/${slow.id}/readings`, { temperature: 35 });
    clock += 61 * MINUTE;
    await Promise.all([processTick(), processTick()]);
    const failed = (await api(manager, 'GET', '/processes')).json<{ processes: Process[] }>().processes.find((row) => row.id === slow.id);
    expect(failed).toMatchObject({ status: 'failed', endedAt: slow.deadline });
    expect(failed?.failure).toContain('+10');
    const alert = (await api(manager, 'GET', `/alerts/${failed?.alertId}`)).json<{ alert: Alert }>().alert;
    expect(alert).toMatchObject({ processId: slow.id, sensorId: null, siteId: site.id, severity: 'critical' });
    expect(alert.events[0]?.text).toContain('Rôti de porc');
  });

  it('holds food hot at +63 °C or above, read at most two hours apart, until ended', async () => {
    const hold = (product: string) =>
      api(manager, 'POST', '/processes', { kind: 'hot_holding', siteId: site.id, product, temperature: 68 }).then(
        (response) => response.json<{ process: Process }>().process,
      );
    const kept = await hold('Gratin dauphinois');
    clock += 90 * MINUTE;
    await api(manager, 'POST', `/processes/${kept.id}/readings`, { temperature: 65 });
    clock += 100 * MINUTE;
    const ended = await api(manager, 'POST', `/processes/${kept.id}/end`);
    expect(ended.json<{ process: Process }>().process).toMatchObject({ status: 'ok', alertId: null });

    const cooled = await hold('Lasagnes');
    clock += 30 * MINUTE;
    const below = (await api(manager, 'POST', `/processes/${cooled.id}/readings`, { temperature: 58 })).json<{ process: Process }>()
      .process;
    expect(below.status).toBe('failed');
    expect(below.failure).toContain('sous +63');
    expect(below.alertId).toBeTruthy();
    expect((await api(manager, 'POST', `/processes/${cooled.id}/end`)).statusCode).toBe(409);
  });

  it('follows a cooling by the probe of its blast chiller: the sensor’s readings are the process’s', async () => {
    const probe = await provision(t, admin, 'sensor');
    const foreign = await provision(t, stranger, 'sensor');
    expect(
      (await api(manager, 'POST', '/processes', { kind: 'cooling', siteId: site.id, product: 'Poulet', sensorId: foreign.deviceId }))
        .statusCode,
    ).toBe(404);
    const started = (
      await api(manager, 'POST', '/processes', {
        kind: 'cooling',
        siteId: site.id,
        product: 'Poulet rôti',
        sensorId: probe.deviceId,
        temperature: 75,
      })
    ).json<{ process: Process }>().process;
    expect(started).toMatchObject({ sensorId: probe.deviceId, status: 'running' });
    const at = (minutes: number) => Date.parse(started.startedAt) + minutes * MINUTE;
    expect(
      (
        await sendTelemetry(t, probe.accessToken, [
          { ts: at(30), temperature: 41.5 },
          { ts: at(70), temperature: 9.5 },
        ])
      ).statusCode,
    ).toBe(202);
    const read = async () =>
      (await api(manager, 'GET', '/processes')).json<{ processes: Process[] }>().processes.find((row) => row.id === started.id);
    const deadline = Date.now() + 10_000;
    while ((await read())?.status === 'running' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const done = await read();
    expect(done).toMatchObject({ status: 'ok', endedAt: new Date(at(70)).toISOString() });
    expect(done?.readings.map((reading) => reading.temperature)).toEqual([75, 41.5, 9.5]);
  });

  it('gives the chain’s overview each shop’s tasks this month: due, done, late, missed, non-conforming', async () => {
    const response = await api(admin, 'GET', '/overview');
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json<{ sites: { siteId: string; tasks?: Record<string, number> }[] }>().sites;
    const lyon = rows.find((row) => row.siteId === site.id)?.tasks;
    expect(lyon?.done).toBeGreaterThanOrEqual(2);
    expect(lyon?.late).toBeGreaterThanOrEqual(1);
    expect(lyon?.missed).toBeGreaterThanOrEqual(1);
    expect(lyon?.nonconforming).toBeGreaterThanOrEqual(1);
    expect(lyon?.due).toBeGreaterThanOrEqual((lyon?.done ?? 0) + (lyon?.late ?? 0) + (lyon?.missed ?? 0));
    // A member who sees Lille only reads Lille's line alone.
    const theirs = (await api(scoped, 'GET', '/overview')).json<{ sites: { siteId: string }[] }>().sites;
    expect(theirs.map((row) => row.siteId)).toEqual([lille.id]);
  });
});
