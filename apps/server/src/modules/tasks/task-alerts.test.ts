import { randomUUID } from 'node:crypto';
import type { Site, Task, TaskTemplate } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { mailingTestApp } from '../../test/mailing-test-app.ts';
import { recipientOf } from '../../test/smtp-catcher.ts';
import { databaseKind, type TestAccount } from '../../test/test-app.ts';

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/**
 * A task nobody did is missed by the clock and its alert is e-mailed like a sensor's (docs/api.md,
 * Plan de maîtrise sanitaire), to the people who see its shop, naming the task and the shop.
 */
describe(`the alert of a missed task, by e-mail (${databaseKind})`, { timeout: 60_000 }, () => {
  // 5 November 2026, 7 h 30 in Paris.
  const mailing = mailingTestApp({
    publicUrl: 'https://vigie.example.fr',
    mailFrom: 'Vigie <alertes@vigie.test>',
    start: new Date('2026-11-05T06:30:00Z'),
  });

  it('e-mails the people of the shop once, naming the task and the shop; those of another shop hear nothing', async () => {
    const { t, smtp } = mailing;
    const organization = `Chaîne ${randomUUID()}`;
    const director = await t.createAccount({ organization, name: 'Directrice qualité' });
    const lilleManager = await t.createAccount({ organization, name: 'Gérante Lille' });
    const call = (who: TestAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
    const site = async (name: string) => (await call(director, 'POST', '/api/sites', { name })).json<{ site: Site }>().site;
    const lyon = await site('Lyon Part-Dieu');
    const lille = await site('Lille Centre');
    expect(
      (await call(director, 'PUT', `/api/members/${lilleManager.id}`, { role: 'manager', scope: { siteIds: [lille.id] } })).statusCode,
    ).toBe(200);

    const created = await call(director, 'POST', '/api/task-templates', {
      name: 'Ouverture du magasin',
      kind: 'checklist',
      siteIds: [lyon.id],
      items: [{ label: 'Chambre froide à 4 °C ou moins', type: 'boolean', expected: true }],
      schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 30, graceMinutes: 15 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const template = created.json<{ template: TaskTemplate }>().template;
    const [task] = (await call(director, 'GET', `/api/tasks?siteId=${lyon.id}`))
      .json<{ tasks: Task[] }>()
      .tasks.filter((row) => row.templateId === template.id);
    if (!task) throw new Error('no task');
    // 8 h 45 and a second: the grace is over, nobody answered.
    mailing.clock = new Date(Date.parse(task.graceEndsAt) + 1000);
    await t.app.services.tasks.tasks.tick();
    await t.app.services.notifications.tick();

    const about = () => smtp.received.filter((mail) => mail.subject?.includes('Ouverture du magasin'));
    const deadline = Date.now() + 10_000;
    while (about().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const mails = about();
    expect(mails.map(recipientOf)).toEqual([director.email.toLowerCase()]);
    const [mail] = mails;
    expect(plain(mail?.subject ?? '')).toBe('[Vigie] Avertissement – Ouverture du magasin : tâche manquée');
    expect(plain(mail?.text ?? '')).toContain('Avertissement sur « Ouverture du magasin » (Lyon Part-Dieu).');
    expect(plain(mail?.text ?? '')).toContain('Site : Lyon Part-Dieu');
    // Once: the next ticks send nothing more for this opening.
    await t.app.services.tasks.tasks.tick();
    await t.app.services.notifications.tick();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(about()).toHaveLength(1);
  });
});
