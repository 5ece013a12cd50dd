import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Alert, Sensor } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpCatcher, startSmtpCatcher } from '../../test/smtp-catcher.ts';
import { createTestApp, databaseKind, isolatedDatabase, type TestAccount, type TestApp } from '../../test/test-app.ts';
import { createAlertsCore } from '../alerts/alerts-core.ts';
import { createMailer } from './mailer.ts';
import { createNotificationService } from './notification-service.ts';
import { isPublicAddress, resolveWebhookTarget } from './webhook-sender.ts';
import { vapidKeys } from './vapid.ts';

const TEST_VAPID = vapidKeys({
  configured: null,
  jwtSecret: 'x'.repeat(32),
  subject: undefined,
  publicUrl: 'https://vigie.example.fr',
  mailFrom: undefined,
});

const T0 = Date.parse('2026-01-05T10:00:00Z');

/** Waits until `done` holds (an e-mail reaches the SMTP server just after the outbox marks it). */
async function waitFor(done: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A local HTTP receiver of webhooks. */
async function startReceiver() {
  const deliveries: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    deliveries,
    url: `http://127.0.0.1:${port}/hooks/vigie`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe(`alert notifications through a real SMTP server and webhook receiver (${databaseKind})`, () => {
  let test: TestApp;
  let account: TestAccount;
  let smtp: SmtpCatcher;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;

  beforeAll(async () => {
    // Its own database: the deliveries below must not pick up other suites' messages, nor they ours.
    isolated = await isolatedDatabase();
    test = await createTestApp(isolated ? { env: { DATABASE_URL: isolated.url } } : {});
    account = await test.createAccount();
    smtp = await startSmtpCatcher();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await smtp.close();
    await receiver.close();
    await test.close();
    await isolated?.drop();
  });

  let now = new Date(T0);
  const names = new Map<string, string>();
  const setNow = (minutes: number) => (now = new Date(T0 + minutes * 60_000));

  function notifier(options: { allowPrivate?: boolean } = {}) {
    return createNotificationService({
      db: test.database.db,
      alerts: alertsModule().alerts,
      describe: async () => ({
        sensorName: 'Vitrine crèmerie',
        siteName: 'Boutique Lyon',
        timezone: 'Europe/Paris',
        ruleName: 'Crèmerie',
        condition: { type: 'above', key: 'temperature', threshold: 4 },
      }),
      teamEmails: async () => [account.email],
      recipientIds: async () => [],
      outOfScope: async () => new Set(),
      vapid: TEST_VAPID,
      mailer: createMailer({ smtpUrl: smtp.url, from: 'Vigie <alertes@vigie.test>' }),
      allowPrivateWebhooks: options.allowPrivate ?? false,
      publicUrl: 'https://vigie.example.fr',
      now: () => now,
      logger: { warn: () => undefined, error: (obj) => console.error(obj) },
    });
  }

  function alertsModule() {
    return createAlertsCore({
      db: test.database.db,
      now: () => now,
      sensor: async (id) => ({ id, organizationId: account.organizationId, siteId: null, lastSeenAt: now, inactivityTimeoutSeconds: 600 }),
      sensorsOf: async () => [],
      site: async () => undefined,
      assertSensor: async () => undefined,
      assertSite: async () => undefined,
      publish: (organizationId, action, alert) => published.push({ organizationId, action, alert }),
      logger: { error: (obj) => console.error(obj) },
    });
  }
  /** What went out on the organizations' live streams. */
  const published: { organizationId: string; action: string; alert: Alert }[] = [];

  async function openAlert(temperature: number): Promise<string> {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/sensor',
      headers: account.auth,
      payload: { name: 'Vitrine crèmerie' },
    });
    const sensorId = response.json<{ sensor: Sensor }>().sensor.id;
    names.set(sensorId, 'Vitrine crèmerie');
    const { engine, rules, alerts } = alertsModule();
    await rules.create(account.organizationId, { name: 'Crèmerie', sensorId, preset: 'chilled_very_perishable' });
    await engine.onReadings([{ organizationId: account.organizationId, sensorId, ts: now, values: { temperature } }]);
    const [alert] = await alerts.list(account.organizationId, { sensorId });
    if (!alert) throw new Error('no alert');
    return alert.id;
  }

  it('e-mails the team once, in French, with the value, the limit, the duration, the site and a link', async () => {
    setNow(0);
    const before = smtp.received.length;
    const id = await openAlert(7.9);
    setNow(12);
    // Two instances tick at the same time, then again: one e-mail.
    await Promise.all([notifier().tick(), notifier().tick()]);
    await notifier().tick();
    const mails = smtp.received.slice(before);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.to).toMatchObject({ text: account.email });
    expect(mail?.subject).toBe('[Vigie] Alerte critique – Vitrine crèmerie\u202f: 7,9\u00a0°C (limite ≤\u00a0+4,0\u00a0°C)');
    expect(mail?.text).toContain('Valeur\u202f: 7,9\u00a0°C');
    expect(mail?.text).toContain('Limite\u202f: ≤\u00a0+4,0\u00a0°C — règle «\u202fCrèmerie\u202f»');
    expect(mail?.text).toContain('Depuis\u202f: 12\u00a0min (ouverte le 05/01/2026 à 11\u202fh)');
    expect(mail?.text).toContain('Site\u202f: Boutique Lyon');
    expect(mail?.text).toContain(`https://vigie.example.fr/dashboard/alertes/${id}`);
    const alert = await alertsModule().alerts.get(account.organizationId, id);
    expect(alert?.events.map((event) => [event.type, event.text])).toEqual([
      ['opened', null],
      ['notified', 'Alerte envoyée à l’équipe.'],
    ]);
    // The line went out once on the organization's live stream: the alert's open page shows it.
    const told = published.filter((change) => change.alert.id === id && change.action === 'updated');
    expect(told).toHaveLength(1);
    expect(told[0]?.organizationId).toBe(account.organizationId);
    expect(told[0]?.alert.events.at(-1)).toMatchObject({ type: 'notified', text: 'Alerte envoyée à l’équipe.' });
  });

  it('escalates after the policy’s delay without acknowledgement, to the next person', async () => {
    setNow(0);
    const service = notifier();
    await service.updatePolicy(account.organizationId, {
      steps: [
        { afterMinutes: 0, emails: null },
        { afterMinutes: 120, emails: ['responsable.region@enseigne.fr'] },
      ],
      repeatMinutes: null,
    });
    const id = await openAlert(9);
    await service.tick();
    const before = smtp.received.length;
    setNow(119);
    await service.tick();
    expect(smtp.received.length).toBe(before);
    setNow(121);
    await service.tick();
    const escalation = smtp.received.slice(before);
    expect(escalation.map((mail) => [mail.subject?.split(' – ')[0], (mail.to as { text: string }).text])).toEqual(
      expect.arrayContaining([['[Vigie] Escalade (alerte critique)', 'responsable.region@enseigne.fr']]),
    );
    const alert = await alertsModule().alerts.get(account.organizationId, id);
    expect(alert?.events.filter((event) => event.type === 'escalated').map((event) => event.text)).toEqual([
      'Sans acquittement depuis 2\u00a0h : escalade à responsable.region@enseigne.fr.',
    ]);
    await service.updatePolicy(account.organizationId, { steps: [{ afterMinutes: 0, emails: null }] });
  });

  it('keeps a message whose delivery failed and sends it once after a restart', async () => {
    setNow(0);
    smtp.state.down = true;
    const before = smtp.received.length;
    await openAlert(11);
    await notifier().tick();
    expect(smtp.received.length).toBe(before);
    const failed = (await notifier().outbox(account.organizationId)).filter((row) => row.status === 'pending' && row.attempts > 0);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.lastError).toBeTruthy();

    smtp.state.down = false;
    setNow(0.25);
    await notifier().tick(); // before the retry delay: nothing yet
    expect(smtp.received.length).toBe(before);
    setNow(1);
    const restarted = notifier();
    await Promise.all([restarted.tick(), notifier().tick()]);
    expect(smtp.received.length).toBe(before + 1);
    expect(smtp.received.at(-1)?.subject).toContain('11,0\u00a0°C');
  });

  it('signs webhooks with the organization’s secret, and refuses loopback unless the operator allows it', async () => {
    setNow(0);
    const service = notifier({ allowPrivate: true });
    const policy = await service.updatePolicy(account.organizationId, { webhookUrl: receiver.url });
    expect(policy.webhookSecret).toMatch(/^[\w-]{40,}$/);
    await openAlert(6.5);
    await service.tick();
    const delivery = receiver.deliveries.find((d) => (JSON.parse(d.body) as { alert: { last: number } }).alert.last === 6.5);
    expect(delivery).toBeDefined();
    const timestamp = String(delivery?.headers['x-vigie-timestamp']);
    const expected = `sha256=${createHmac('sha256', policy.webhookSecret ?? '')
      .update(`${timestamp}.${delivery?.body}`)
      .digest('hex')}`;
    expect(delivery?.headers['x-vigie-signature']).toBe(expected);
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({
      type: 'alert.notification',
      reason: 'opened',
      alert: { status: 'open', last: 6.5 },
    });

    const count = receiver.deliveries.length;
    await openAlert(7.5);
    await notifier({ allowPrivate: false }).tick();
    expect(receiver.deliveries.length).toBe(count);
    const refused = (await service.outbox(account.organizationId)).filter((row) => row.channel === 'webhook' && row.status === 'pending');
    expect(refused.at(-1)?.lastError).toContain('réseau privé');
    await service.updatePolicy(account.organizationId, { webhookUrl: null });
  });

  it('plans an alert storm once: later ticks render nothing until a step falls due, and a burst of ticks makes one pass', async () => {
    setNow(0);
    const service = notifier();
    await service.updatePolicy(account.organizationId, { steps: [{ afterMinutes: 0, emails: null }], repeatMinutes: 60 });
    let described = 0;
    const stormRules = new Set<string>();
    const mailed = () => smtp.received.filter((mail) => mail.subject?.includes('Tempête')).length;
    const counting = createNotificationService({
      db: test.database.db,
      alerts: alertsModule().alerts,
      describe: async (alert) => {
        // Alerts opened by the other tests may fall due too: only the storm's are counted.
        const ours = alert.ruleId !== null && stormRules.has(alert.ruleId);
        if (ours) described += 1;
        return {
          sensorName: ours ? 'Tempête' : 'Autre',
          siteName: 'Boutique Lyon',
          timezone: 'Europe/Paris',
          ruleName: 'Froid',
          condition: null,
        };
      },
      teamEmails: async () => [account.email],
      recipientIds: async () => [],
      outOfScope: async () => new Set(),
      vapid: TEST_VAPID,
      mailer: createMailer({ smtpUrl: smtp.url, from: 'Vigie <alertes@vigie.test>' }),
      allowPrivateWebhooks: false,
      publicUrl: 'https://vigie.example.fr',
      now: () => now,
      logger: { warn: () => undefined, error: (obj) => console.error(obj) },
    });
    // Everything opened before is planned first, so that only the storm is counted below.
    await counting.tick();
    const storm = 60;
    const { engine, rules } = alertsModule();
    for (let index = 0; index < storm; index += 1) {
      const created = await test.app.inject({
        method: 'POST',
        url: '/api/sensor',
        headers: account.auth,
        payload: { name: `Meuble ${index}` },
      });
      const sensorId = created.json<{ sensor: Sensor }>().sensor.id;
      const rule = await rules.create(account.organizationId, { name: `Froid ${index}`, sensorId, preset: 'chilled_very_perishable' });
      stormRules.add(rule.id);
      await engine.onReadings([{ organizationId: account.organizationId, sensorId, ts: now, values: { temperature: 9 } }]);
    }
    described = 0;
    // Every opened alert asks for a tick, at once: one or two passes, not one per alert.
    await Promise.all(Array.from({ length: storm }, () => counting.tick()));
    expect(described).toBe(storm);
    await waitFor(() => mailed() >= storm);
    expect(mailed()).toBe(storm);

    // The clock ticks every 10 s for the next 50 minutes: nothing is due, nothing is rendered again.
    for (let second = 10; second < 50 * 60; second += 10) {
      setNow(second / 60);
      await counting.tick();
    }
    expect(described).toBe(storm);
    expect(mailed()).toBe(storm);

    // An hour after opening, the repeat falls due: each alert is planned once more, e-mailed once more.
    setNow(60);
    await counting.tick();
    await counting.tick();
    expect(described).toBe(2 * storm);
    await waitFor(() => mailed() >= 2 * storm);
    expect(mailed()).toBe(2 * storm);
    await service.updatePolicy(account.organizationId, { repeatMinutes: null });
  }, 120_000);

  it('tells public addresses from loopback, private, link-local and mapped ones', async () => {
    expect(['8.8.8.8', '2a00:1450:4007:80f::200e', '193.51.24.1'].map(isPublicAddress)).toEqual([true, true, true]);
    expect(
      [
        '127.0.0.1',
        '10.1.2.3',
        '172.16.0.1',
        '192.168.1.10',
        '169.254.169.254',
        '0.0.0.0',
        '::1',
        '::ffff:127.0.0.1',
        'fd00::1',
        'fe80::1',
        '100.64.0.1',
      ].map(isPublicAddress),
    ).toEqual(Array(11).fill(false));
    await expect(resolveWebhookTarget(new URL('http://localhost:8080/x'), false)).rejects.toThrow('réseau privé');
    await expect(resolveWebhookTarget(new URL('http://[::1]/x'), false)).rejects.toThrow('réseau privé');
    await expect(resolveWebhookTarget(new URL('http://127.0.0.1/x'), true)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });
});
