/**
 * An invitation on a server that sends no e-mail (no `SMTP_URL`), end to end: the admin invites an
 * address as « Lecteur » from « Équipe » and gets the one-time link on the page instead of
 * « Invitation envoyée à … »; the person opens it in another browser, chooses a name and a
 * password, lands signed in with the invited role (no way to invite anyone), and the journal says
 * « Invitation créée », not sent by e-mail. The shared e2e server has an SMTP server: this spec
 * starts its own, without one, on free ports and its own embedded database.
 */
import type { Browser, BrowserContext } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, saveScreenshot, seriousViolations, signInWithToken, test, TOKEN_KEY } from './support/fixtures';
import { sideMenu } from './support/navigation';

// A server of its own to start, two browsers and two axe analyses: slow on a busy machine.
test.describe.configure({ timeout: 240_000, mode: 'serial' });

const root = fileURLToPath(new URL('..', import.meta.url));
const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const ADMIN = {
  email: `admin-${runId}@example.fr`,
  password: `Mdp-${randomBytes(9).toString('base64url')}`,
  name: `Admin ${runId}`,
  org: `Sans e-mail ${runId}`,
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

let server: ChildProcess | undefined;
let dataDir = '';
let baseURL = '';

/** Runs one of the server's commands to its end; its exit code and output. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

test.beforeAll(async () => {
  // A fresh embedded database to create, on a machine the rest of the suite may keep busy.
  test.setTimeout(240_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'vigie-e2e-nomail-'));
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    MQTT_PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // The links it hands over lead back to this server.
    PUBLIC_URL: baseURL,
  };
  // No e-mail server, and nothing shared with the suite's server (its database, an external broker).
  delete env['SMTP_URL'];
  delete env['DATABASE_URL'];
  delete env['MQTT_BROKER_URL'];

  const started = spawn(process.execPath, ['apps/server/dist/main.js'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  server = started;
  await expect
    .poll(
      async () => {
        if (started.exitCode !== null) throw new Error(`The server exited with code ${started.exitCode} during start-up.`);
        return fetch(`${baseURL}/api/ready`, { signal: AbortSignal.timeout(5_000) }).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 180_000, intervals: [250] },
    )
    .toBe(200);

  // The admin, made by the operator's command (handed to the running server through its local admin channel).
  const created = await run(
    ['apps/server/dist/user-create.js', '--email', ADMIN.email, '--password', ADMIN.password, '--name', ADMIN.name, '--org', ADMIN.org],
    env,
  );
  expect(created.code, created.output).toBe(0);
});

test.afterAll(async () => {
  const running = server;
  if (running && running.exitCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A browser of its own on this spec's server, as the suite's pages are configured. */
function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
    serviceWorkers: 'block',
  });
}

test('without an e-mail server, the admin hands over the invitation link, which makes a signed-in viewer', async ({ browser }) => {
  const address = `someone-${runId}@example.fr`;
  const adminContext = await newContext(browser);
  const guestContext = await newContext(browser);
  try {
    // The admin signs in through the API and opens « Équipe » from the navigation.
    const login = await adminContext.request.post('/api/auth/login', { data: { email: ADMIN.email, password: ADMIN.password } });
    expect(login.status(), await login.text()).toBe(200);
    await adminContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    const page = await adminContext.newPage();
    await signInWithToken(page, ((await login.json()) as { accessToken: string }).accessToken);
    await page.goto('/dashboard');
    await sideMenu(page).getByRole('link', { name: 'Équipe' }).click();
    await expect(page).toHaveURL(/\/dashboard\/equipe$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Équipe' })).toBeVisible();

    const form = page.getByRole('form', { name: 'Inviter un membre' });
    await form.getByLabel('Adresse e-mail').fill(address);
    await form.getByLabel('Rôle').selectOption({ label: 'Lecteur' });
    await form.getByRole('button', { name: 'Envoyer l’invitation' }).click();

    // Nothing was sent: the page says so and shows the link to hand over, once.
    const handover = page.getByTestId('handover-link');
    await expect(handover.getByRole('status')).toContainText(`Invitation créée pour ${address}. Ce serveur n’envoie pas d’e-mail`);
    await expect(page.getByText('Invitation envoyée', { exact: false })).toHaveCount(0);
    const field = handover.getByLabel(`Lien d’invitation pour ${address}`);
    await expect(field).toHaveValue(/\/invitation#[A-Za-z0-9_-]{20,}$/);
    const link = await field.inputValue();
    expect(new URL(link).origin).toBe(baseURL);
    await expect(form.getByLabel('Adresse e-mail')).toHaveValue('');
    const pending = page.getByTestId('invitation').filter({ hasText: address });
    await expect(pending).toContainText('Lecteur');

    // « Copier le lien » puts it on the clipboard.
    await handover.getByRole('button', { name: 'Copier le lien' }).click();
    await expect(handover.getByText('Lien copié.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // At 1280 and 375 px: accessible, nothing wider than the screen.
    for (const size of [
      { width: 1280, height: 800, name: 'desktop' },
      { width: 375, height: 812, name: 'phone' },
    ]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await handover.scrollIntoViewIfNeeded();
      await expect(handover).toBeInViewport();
      expect(await seriousViolations(page), `handover link at ${size.width} px`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      const box = await handover.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= size.width, `handover link within ${size.width} px`).toBe(true);
      await saveScreenshot(page, `invitation-link-${size.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // The invited person opens the link in a browser with no session.
    const guest = await guestContext.newPage();
    await guest.goto(link);
    await expect(guest.getByRole('heading', { level: 1, name: `Rejoindre ${ADMIN.org}` })).toBeVisible();
    await expect(guest.getByText(address)).toBeVisible();
    await expect(guest.getByText('Lecteur', { exact: true })).toBeVisible();
    await guest.getByLabel('Nom').fill('Sam Lecteur');
    await guest.getByLabel('Mot de passe', { exact: true }).fill('une phrase assez longue');
    await guest.getByRole('button', { name: 'Rejoindre l’équipe' }).click();

    // Signed in, in the organization, with the invited role: no way to manage the team.
    await expect(guest).toHaveURL(/\/dashboard$/);
    await expect(guest.getByRole('banner')).toContainText('Sam Lecteur');
    await expect(guest.getByRole('banner')).toContainText(ADMIN.org);
    const me = await guestContext.request.get('/api/user/me', {
      headers: { Authorization: `Bearer ${await guest.evaluate((key) => window.localStorage.getItem(key), TOKEN_KEY)}` },
    });
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { user: { email: string; role: string } }).user).toMatchObject({ email: address, role: 'viewer' });
    await expect(sideMenu(guest).getByRole('link', { name: 'Tableau de bord' })).toBeVisible();
    await expect(guest.getByRole('link', { name: 'Équipe' })).toHaveCount(0);
    await guest.goto('/dashboard/equipe');
    await expect(guest.getByText(/Seuls les administrateurs gèrent l’équipe/)).toBeVisible();
    await expect(guest.getByRole('form', { name: 'Inviter un membre' })).toHaveCount(0);
    await expect(guest.getByRole('button', { name: /Inviter|Envoyer l’invitation|Renvoyer|Révoquer/ })).toHaveCount(0);

    // The link served once: opened again, it is refused.
    const again = await newContext(browser);
    try {
      const reopened = await again.newPage();
      await reopened.goto(link);
      await expect(reopened.getByRole('alert')).toContainText('Cette invitation n’existe pas ou a déjà servi.');
      await expect(reopened.getByLabel('Nom')).toHaveCount(0);
    } finally {
      await again.close();
    }

    // Back as admin: the new member is a « Lecteur », and the journal says « Invitation créée », not by e-mail.
    await page.reload();
    const joined = page.getByTestId('member').filter({ hasText: address });
    await expect(joined).toContainText('Sam Lecteur');
    await expect(joined.getByLabel('Rôle de Sam Lecteur')).toHaveValue('viewer');
    await expect(page.getByTestId('invitation').filter({ hasText: address })).toHaveCount(0);

    await sideMenu(page).getByRole('link', { name: 'Tableau de bord' }).click();
    await sideMenu(page).getByRole('link', { name: 'Journal', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/journal$/);
    const events = page.getByRole('list', { name: 'Actions du journal' }).getByTestId('audit-event');
    const invited = events.filter({ hasText: 'Invitation créée' }).filter({ hasText: address });
    await expect(invited).toHaveCount(1);
    await expect(invited).toContainText(`Invitation créée · invitation « ${address} »`);
    await expect(invited).toContainText(/Rôle\s: Lecteur/);
    await expect(invited).toContainText(/Envoyée par e-mail\s: non/);
    await expect(invited).toContainText(`par ${ADMIN.name} (${ADMIN.email})`);
    await expect(invited).not.toContainText('/invitation#');
    await expect(events.filter({ hasText: 'Invitation acceptée' })).toHaveCount(1);
  } finally {
    await guestContext.close();
    await adminContext.close();
  }
});
