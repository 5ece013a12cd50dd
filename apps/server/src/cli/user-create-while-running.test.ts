import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendAdminRequest } from '../adapters/admin-socket/admin-client.ts';
import { adminSocketPath, MAX_REQUEST_BYTES } from '../adapters/admin-socket/admin-protocol.ts';
import { INVALID_REQUEST } from '../adapters/admin-socket/admin-socket.ts';
import { runCli, type RunningServer, startServer } from '../test/child-process.ts';
import { cleanedAfterEach } from '../test/server-processes.ts';
import { databaseUrl, tempDir } from '../test/test-app.ts';

// The local channel exists for the embedded database: the child processes never get DATABASE_URL.
const embedded = { DATABASE_URL: undefined, JWT_SECRET: undefined };
const PASSWORD = 'une phrase de passe';

async function login(server: RunningServer, email: string): Promise<Response> {
  return fetch(`${server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
}

/** Sends raw bytes on the socket and returns what the server answers before it closes. */
function exchange(socketPath: string, data: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () => socket.write(data));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

// Real server processes on a real embedded database: generous timeouts for a loaded machine. On
// the embedded pass only: the PostgreSQL pass would run the very same processes again.
describe.skipIf(databaseUrl)('npm run user:create while the server runs on the embedded database', { timeout: 180_000 }, () => {
  const { servers, dirs } = cleanedAfterEach();

  it('creates the account through the running server, then directly once it has stopped', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const env = { ...embedded, DATA_DIR: dataDir };
    const socketPath = adminSocketPath(dataDir);
    const server = await startServer(env);
    servers.push(server);

    const socket = fs.statSync(socketPath);
    expect(socket.isSocket()).toBe(true);
    expect((socket.mode & 0o777).toString(8)).toBe('600');

    const email = `Gerant-${randomUUID()}@Example.fr`;
    const org = `Boutique ${randomUUID()}`;
    const created = await runCli(['--email', email, '--password', PASSWORD, '--name', 'Léa', '--org', org], env);
    expect(created.code, created.output).toBe(0);
    expect(created.output).toContain(`Compte créé : ${email} (organisation « ${org} »).`);

    const response = await login(server, email);
    expect(response.status).toBe(200);
    const { accessToken } = (await response.json()) as { accessToken: string };
    const me = await fetch(`${server.baseUrl}/api/user/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(await me.json()).toMatchObject({ user: { email, name: 'Léa', role: 'admin', organization: { name: org } } });

    const duplicate = await runCli(['--email', email.toLowerCase(), '--password', 'autre mot de passe'], env);
    expect(duplicate.code).toBe(1);
    expect(duplicate.output).toContain(`Un compte existe déjà avec l'adresse ${email.toLowerCase()}.`);

    // The server checks the fields itself, with the same French messages as the direct path.
    expect(await sendAdminRequest(dataDir, { command: 'user:create', account: { email: 'pas-un-email', password: PASSWORD } })).toEqual({
      ok: false,
      message: expect.stringMatching(/adresse e-mail n'est pas valide/),
    });
    expect(await sendAdminRequest(dataDir, { command: 'user:create', account: { email: 'court@example.fr', password: 'court' } })).toEqual({
      ok: false,
      message: expect.stringMatching(/au moins 8 caractères/),
    });
    for (const line of ['pas du JSON\n', '{"command":"user:delete","account":{}}\n', `${'x'.repeat(MAX_REQUEST_BYTES + 1)}`]) {
      expect(JSON.parse(await exchange(socketPath, line))).toEqual({ ok: false, message: INVALID_REQUEST });
    }

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(fs.existsSync(socketPath)).toBe(false);

    // Server stopped: the command opens the database itself, the same one.
    const direct = await runCli(['--email', `direct-${randomUUID()}@example.fr`, '--password', PASSWORD], env);
    expect(direct.code, direct.output).toBe(0);
    expect(direct.output).toContain('Compte créé');
    const again = await runCli(['--email', email, '--password', PASSWORD], env);
    expect(again.code).toBe(1);
    expect(again.output).toContain(`Un compte existe déjà avec l'adresse ${email}.`);
  });

  it('imports a maker’s batch through the running server, then directly once it has stopped', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const env = { ...embedded, DATA_DIR: dataDir };
    const server = await startServer(env);
    servers.push(server);
    const importCli = (file: string) => runCli([file], env, 'src/cli/devices-import.ts');
    const provision = (serial: string, claimCode: string) =>
      fetch(`${server.baseUrl}/api/devices/provision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ serial, claimCode }),
      });
    const [serial, other, later] = [1, 2, 3].map(() => `VIG-${randomUUID().slice(0, 8)}`.toUpperCase());
    const batch = path.join(dataDir, 'lot.csv');
    fs.writeFileSync(batch, `serial;kind;model;claimCode\n${serial};sensor;Vigie Froid T1;ABCDEFGHJKLM\n${other};emitter;;MNPQRSTUVWXY\n`);

    const imported = await importCli(batch);
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).toContain('2 appareils importés, 0 déjà connu (inchangé).');
    // The running server knows the devices at once: a device asking with its label's code is waiting to be claimed.
    expect((await provision(serial ?? '', 'ABCDEFGHJKLM')).status).toBe(202);

    const again = await importCli(batch);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain(`${serial} : déjà importé, inchangé.`);
    expect(again.output).toContain('0 appareil importé, 2 déjà connus (inchangés).');

    // The server checks the batch itself too: a line that did not come from the command is refused whole.
    const forged = await sendAdminRequest(dataDir, {
      command: 'devices:import',
      devices: [{ serial: later ?? '', kind: 'sensor', claimCode: 'court' }],
    });
    expect(forged).toEqual({ ok: false, message: INVALID_REQUEST });

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    fs.writeFileSync(batch, `serial;kind;model;claimCode\n${later};sensor;;ABCDEFGHJKLM\n`);
    const direct = await importCli(batch);
    expect(direct.code, direct.output).toBe(0);
    expect(direct.output).toContain('1 appareil importé, 0 déjà connu (inchangé).');
  });

  it('replaces the socket left by a killed server', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const env = { ...embedded, DATA_DIR: dataDir };
    const killed = await startServer(env);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(fs.statSync(adminSocketPath(dataDir)).isSocket()).toBe(true);

    const server = await startServer(env);
    servers.push(server);
    expect((fs.statSync(adminSocketPath(dataDir)).mode & 0o777).toString(8)).toBe('600');
    const email = `apres-${randomUUID()}@example.fr`;
    const created = await runCli(['--email', email, '--password', PASSWORD], env);
    expect(created.code, created.output).toBe(0);
    expect(created.output).toContain(`Compte créé : ${email} (organisation « Mon organisation »).`);
    expect((await login(server, email)).status).toBe(200);
  });
});
