import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServer } from '../test/child-process.ts';
import { databaseKind, tempDir } from '../test/test-app.ts';

describe(`npm run operator:create on ${databaseKind}`, { timeout: 120_000 }, () => {
  const dataDir = tempDir();
  const env = { DATA_DIR: dataDir };
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('creates an operator who signs in, has no organization and reaches the operator routes; a duplicate is refused', async () => {
    const email = `operateur-${randomUUID()}@example.fr`;
    const created = await runCli(
      ['--email', email, '--password', 'un mot de passe assez long', '--name', 'Olga'],
      env,
      'src/cli/operator-create.ts',
    );
    expect(created.code, created.output).toBe(0);
    expect(created.output).toContain('Compte opérateur créé');
    const duplicate = await runCli(['--email', email, '--password', 'un autre mot de passe'], env, 'src/cli/operator-create.ts');
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.output).toContain('Un compte existe déjà');

    const server = await startServer(env);
    try {
      const login = await fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'un mot de passe assez long' }),
      });
      expect(login.status).toBe(200);
      const { accessToken } = (await login.json()) as { accessToken: string };
      const auth = { authorization: `Bearer ${accessToken}` };
      expect(await (await fetch(`${server.baseUrl}/api/user/me`, { headers: auth })).json()).toMatchObject({
        user: { email, operator: true, organization: null },
      });
      expect((await fetch(`${server.baseUrl}/api/operator/organizations`, { headers: auth })).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
