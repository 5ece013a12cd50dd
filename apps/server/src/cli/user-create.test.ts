import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServer } from '../test/child-process.ts';
import { databaseKind, tempDir } from '../test/test-app.ts';

describe(`npm run user:create on ${databaseKind}`, { timeout: 120_000 }, () => {
  const dataDir = tempDir();
  const env = { DATA_DIR: dataDir };
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('creates an account that can log in, and refuses a duplicate email with a clear message', async () => {
    const email = `Gerant-${randomUUID()}@Example.fr`;
    const org = `Boutique ${randomUUID()}`;
    const created = await runCli(['--email', email, '--password', 'pâtisserie 🥐 de quartier', '--name', 'Léa', '--org', org], env);
    expect(created.code, created.output).toBe(0);
    expect(created.output).toContain('Compte créé');

    const duplicate = await runCli(['--email', email.toLowerCase(), '--password', 'autre mot de passe'], env);
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.output).toContain('Un compte existe déjà');

    const server = await startServer(env);
    try {
      const login = await fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'pâtisserie 🥐 de quartier' }),
      });
      expect(login.status).toBe(200);
      const { accessToken } = (await login.json()) as { accessToken: string };
      const me = await fetch(`${server.baseUrl}/api/user/me`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(await me.json()).toMatchObject({ user: { email, name: 'Léa', role: 'admin', organization: { name: org } } });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it.each([
    [['--password', 'assez long'], /--email est obligatoire/],
    [['--email', 'a@b.fr'], /--password est obligatoire/],
    [['--email', 'pas-un-email', '--password', 'assez long'], /adresse e-mail n'est pas valide/],
    [['--email', 'court@example.fr', '--password', 'court'], /au moins 8 caractères/],
    [['--email', 'a@b.fr', '--password', 'assez long', '--role', 'admin'], /Option invalide/],
  ])('exits non-zero with a French message for %j', async (args, message) => {
    const result = await runCli(args, env);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(message);
  });
});
