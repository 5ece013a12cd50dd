import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import mqtt from 'mqtt';
import { freePort, runCli, startServer } from './test/child-process.ts';
import { cleanedAfterEach } from './test/server-processes.ts';
import { databaseKind, databaseUrl, tempDir } from './test/test-app.ts';

// These tests are about the embedded database: the child servers never get DATABASE_URL, and the
// PostgreSQL pass skips them (it would run the very same processes again). The one that runs on
// the database of the pass says so in its name.
const embedded = { DATABASE_URL: undefined, JWT_SECRET: undefined };

// Real processes starting a real embedded database: generous timeouts for a loaded machine.
describe('embedded database durability (real server processes)', { timeout: 180_000 }, () => {
  const { servers, dirs } = cleanedAfterEach();

  it.skipIf(databaseUrl)('keeps an acknowledged device after the server is killed with SIGKILL and started again', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const created = await runCli(['--email', 'gerant@example.fr', '--password', 'un mot de passe sûr', '--org', 'Épicerie'], {
      ...embedded,
      DATA_DIR: dataDir,
    });
    expect(created.code, created.output).toBe(0);

    const first = await startServer({ ...embedded, DATA_DIR: dataDir });
    servers.push(first);
    const login = await fetch(`${first.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'gerant@example.fr', password: 'un mot de passe sûr' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const create = await fetch(`${first.baseUrl}/api/sensor`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Congélateur 2' }),
    });
    expect(create.status).toBe(201);
    const { sensor } = (await create.json()) as { sensor: { id: string } };

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const second = await startServer({ ...embedded, DATA_DIR: dataDir });
    servers.push(second);
    // The same token works: the generated JWT secret was kept in DATA_DIR.
    const read = await fetch(`${second.baseUrl}/api/sensor/${sensor.id}`, { headers: auth });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { sensor: { name: string } }).sensor.name).toBe('Congélateur 2');
    expect((fs.statSync(`${dataDir}/jwt-secret`).mode & 0o777).toString(8)).toBe('600');
  });

  it(`keeps every reading acknowledged by PUBACK or 202 when the server is killed mid-stream (${databaseKind})`, async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const email = `froid-${randomUUID()}@example.fr`;
    const account = ['--email', email, '--password', 'chaîne du froid', '--org', `Primeur ${randomUUID()}`];
    // On the database of this run: the child servers inherit DATABASE_URL when it is set.
    const database = databaseUrl ? {} : embedded;
    expect((await runCli(account, { ...database, DATA_DIR: dataDir })).code).toBe(0);
    const env = { ...database, DATA_DIR: dataDir, MQTT_PORT: String(await freePort()) };
    const first = await startServer(env);
    servers.push(first);
    const json = { 'content-type': 'application/json' };
    const login = async (baseUrl: string) => {
      const response = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email, password: 'chaîne du froid' }),
      });
      return { ...json, authorization: `Bearer ${((await response.json()) as { accessToken: string }).accessToken}` };
    };
    const auth = await login(first.baseUrl);
    const { installationKey } = (await (await fetch(`${first.baseUrl}/api/organization/installation-key`, { headers: auth })).json()) as {
      installationKey: string;
    };
    const provisioned = await fetch(`${first.baseUrl}/api/devices/provision`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ installationKey, serial: 'KILL-1', kind: 'sensor' }),
    });
    const device = (await provisioned.json()) as { deviceId: string; accessToken: string };

    const acked = new Set<number>();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${env.MQTT_PORT}`, {
      clientId: device.deviceId,
      username: device.deviceId,
      password: device.accessToken,
      reconnectPeriod: 0,
    });
    const start = Date.now() - 60_000;
    let stop = false;
    const mqttLoop = (async () => {
      for (let i = 0; !stop; i += 10) {
        const batch = Array.from({ length: 10 }, (_, k) => i + k);
        await Promise.all(
          batch.map((n) =>
            client
              .publishAsync(
                `vigie/devices/${device.deviceId}/telemetry`,
                JSON.stringify({ id: `m${n}`, ts: start + n, values: { seq: n } }),
                { qos: 1 },
              )
              .then(() => acked.add(n)),
          ),
        ).catch(() => (stop = true));
      }
    })();
    const httpLoop = (async () => {
      for (let n = 1_000_000; !stop; n += 1) {
        const response = await fetch(`${first.baseUrl}/api/devices/telemetry`, {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${device.accessToken}` },
          body: JSON.stringify({ id: `h${n}`, ts: start + (n % 50_000), values: { seq: n } }),
        }).catch(() => null);
        if (!response) break;
        if (response.status === 202) acked.add(n);
      }
    })();
    // Killed mid-traffic, once a good number of messages were acknowledged.
    await vi.waitFor(() => expect(acked.size).toBeGreaterThan(100), { timeout: 20_000, interval: 10 });
    first.child.kill('SIGKILL');
    await first.exited;
    stop = true;
    client.end(true);
    await Promise.allSettled([mqttLoop, httpLoop]);
    expect(acked.size).toBeGreaterThan(50);

    const second = await startServer(env);
    servers.push(second);
    const csv = await fetch(`${second.baseUrl}/api/sensor/${device.deviceId}/readings.csv?from=${new Date(start - 1000).toISOString()}`, {
      headers: await login(second.baseUrl),
    });
    const stored = new Set(
      (await csv.text())
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => Number(line.split(';')[3])),
    );
    const lost = [...acked].filter((n) => !stored.has(n));
    expect(lost, `${lost.length} of ${acked.size} acknowledged readings lost`).toEqual([]);
  });

  it.skipIf(databaseUrl)('refuses to start a second server on the same DATA_DIR, with a clear message', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const first = await startServer({ ...embedded, DATA_DIR: dataDir });
    servers.push(first);
    const second = await startServer({ ...embedded, DATA_DIR: dataDir }).catch((error: Error) => error);
    expect(second).toBeInstanceOf(Error);
    expect(String(second)).toContain('déjà utilisé par un autre serveur Vigie');
    // The first one is unharmed.
    expect((await fetch(`${first.baseUrl}/api/ready`)).status).toBe(200);
  });

  it.skipIf(databaseUrl)('stops gracefully on SIGTERM: exit code 0 and the lock released', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const server = await startServer({ ...embedded, DATA_DIR: dataDir });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(fs.existsSync(`${dataDir}/vigie.lock`)).toBe(false);
  });
});
