import { setTimeout as delay } from 'node:timers/promises';
import type { Alert } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runCli, startServer } from '../../test/child-process.ts';
import { recipientOf, type SmtpCatcher, startSmtpCatcher } from '../../test/smtp-catcher.ts';
import { databaseUrl, isolatedDatabase, tempDir } from '../../test/test-app.ts';

const JWT_SECRET = 'instances-test-secret-with-at-least-32-characters';

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Two real server processes on one PostgreSQL database, as behind a load balancer: the same
 * breach reaches both at once, and still one alert opens and one e-mail leaves.
 */
describe.runIf(databaseUrl)('two server instances on one PostgreSQL', { timeout: 180_000 }, () => {
  let smtp: SmtpCatcher;
  let smtpUrl: string;
  const servers: RunningServer[] = [];
  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;

  beforeAll(async () => {
    isolated = await isolatedDatabase();
    smtp = await startSmtpCatcher();
    smtpUrl = smtp.url;
  });
  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await smtp.close();
    await isolated?.drop();
  });

  it('opens one alert and sends one e-mail when both instances see the breach', async () => {
    const email = `instances-${Date.now()}@example.fr`;
    const env = { DATABASE_URL: isolated?.url ?? databaseUrl, JWT_SECRET, SMTP_URL: smtpUrl, PUBLIC_URL: 'https://vigie.example.fr' };
    const created = await runCli(['--email', email, '--password', 'mot de passe des instances', '--org', `Instances ${Date.now()}`], {
      ...env,
      DATA_DIR: tempDir(),
    });
    expect(created.code, created.output).toBe(0);
    servers.push(await startServer({ ...env, DATA_DIR: tempDir() }), await startServer({ ...env, DATA_DIR: tempDir() }));
    const [a, b] = servers as [RunningServer, RunningServer];

    const { accessToken } = await json<{ accessToken: string }>(`${a.baseUrl}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email, password: 'mot de passe des instances' }),
    });
    const user = { authorization: `Bearer ${accessToken}` };
    const { installationKey } = await json<{ installationKey: string }>(`${a.baseUrl}/api/organization/installation-key`, {
      headers: user,
    });
    const sensor = await json<{ deviceId: string; accessToken: string }>(`${b.baseUrl}/api/devices/provision`, {
      method: 'POST',
      body: JSON.stringify({ installationKey, serial: `INST-${Date.now()}`, kind: 'sensor', name: 'Vitrine des instances' }),
    });
    await json(`${b.baseUrl}/api/alert-rules`, {
      method: 'POST',
      headers: user,
      body: JSON.stringify({ name: 'Crèmerie', sensorId: sensor.deviceId, preset: 'chilled_very_perishable' }),
    });
    // Both instances read rules for up to 30 s after a change on the other: this one was made on b,
    // so a is told through LISTEN/NOTIFY; give it a moment.
    await delay(500);

    const device = { authorization: `Bearer ${sensor.accessToken}` };
    const now = Date.now();
    await Promise.all(
      [a, b].flatMap((server, i) =>
        [0, 1, 2].map((j) =>
          json(`${server.baseUrl}/api/devices/telemetry`, {
            method: 'POST',
            headers: device,
            body: JSON.stringify({ ts: now - 3000 + i * 10 + j * 1000, values: { temperature: 9 + j } }),
          }),
        ),
      ),
    );

    let alerts: Alert[] = [];
    for (let i = 0; i < 100 && (alerts.length === 0 || smtp.received.length === 0); i += 1) {
      await delay(200);
      alerts = (await json<{ alerts: Alert[] }>(`${a.baseUrl}/api/alerts?sensorId=${sensor.deviceId}`, { headers: user })).alerts;
    }
    // Both instances keep ticking for a while: still exactly one of each.
    await delay(3000);
    alerts = (await json<{ alerts: Alert[] }>(`${b.baseUrl}/api/alerts?sensorId=${sensor.deviceId}`, { headers: user })).alerts;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.events.filter((event) => event.type === 'opened')).toHaveLength(1);
    expect(alerts[0]?.events.filter((event) => event.type === 'notified')).toHaveLength(1);
    const mails = smtp.received.filter((mail) => recipientOf(mail) === email.toLowerCase());
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain('Vitrine des instances');
    expect(mails[0]?.text).toContain(`https://vigie.example.fr/dashboard/alertes/${alerts[0]?.id}`);
  });
});
