/**
 * Two-factor authentication end to end, against the real server: an admin turns it on from
 * « Mon compte » with a QR code and a code computed as an authenticator app does, keeps the
 * recovery codes, signs in with a code and then with a recovery code (which works once), and
 * requires it of every admin from « Équipe »; an admin invited afterwards only reaches
 * « Mon compte » until they turn it on. Axe scans and screenshots at 1280 and 375 px.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { account, checkAtBothSizes, expect, loginThroughForm, signInWithToken, test } from './support/fixtures';
import { invitationLink, lastMailTo } from './support/mail';
import { sideMenu } from './support/navigation';

test.describe.configure({ timeout: 180_000 });

const PERIOD_MS = 30_000;
const NNBSP = '\u202F';

/**
 * What an authenticator app shows for `secret`, never for a 30 s step already used: the server
 * accepts each step once, and the one before or after the current one.
 */
class Authenticator {
  private lastStep = -1;
  private readonly totp: TOTP;

  constructor(secret: string) {
    this.totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  }

  code(): string {
    const step = Math.max(Math.floor(Date.now() / PERIOD_MS), this.lastStep + 1);
    this.lastStep = step;
    return this.totp.generate({ timestamp: step * PERIOD_MS });
  }
}

/** Turns two-factor authentication on from « Mon compte »; answers the app and the recovery codes. */
async function enrol(page: Page, screenshots?: string): Promise<{ app: Authenticator; recoveryCodes: string[] }> {
  const section = page.getByRole('region', { name: 'Double authentification' });
  await section.getByRole('button', { name: 'Activer la double authentification' }).click();
  await expect(section.getByRole('img', { name: 'QR code à scanner avec votre application d’authentification' })).toBeVisible();
  const secret = ((await section.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  if (screenshots) await checkAtBothSizes(page, screenshots);

  const app = new Authenticator(secret);
  const field = section.getByLabel('Code à 6 chiffres');
  await field.fill('12345');
  await section.getByRole('button', { name: 'Activer', exact: true }).click();
  await expect(section.getByRole('alert')).toHaveText('Saisissez les 6 chiffres affichés par l’application.');
  await field.fill(app.code());
  await section.getByRole('button', { name: 'Activer', exact: true }).click();

  const codes = section.getByRole('list', { name: 'Codes de secours' }).getByTestId('recovery-code');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
  for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
  return { app, recoveryCodes };
}

test('two-factor authentication: turned on with a QR code, used to sign in, then required of every admin', async ({
  page,
  request,
  browser,
  login,
  baseURL,
}) => {
  const who = account('totp');
  await login('totp', '/dashboard/compte');
  const section = page.getByRole('region', { name: 'Double authentification' });

  // Required of admins before the admin has it: refused, so that nobody shuts themselves out.
  await page.goto('/dashboard/equipe');
  const requirement = page.getByRole('checkbox', { name: 'Exiger la double authentification pour les administrateurs' });
  await expect(requirement).toBeEnabled();
  await requirement.click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Activez d’abord la double authentification sur votre propre compte' }),
  ).toBeVisible();
  await expect(requirement).not.toBeChecked();

  // Turned on from « Mon compte ».
  await page.goto('/dashboard/compte');
  const { app, recoveryCodes } = await enrol(page, 'totp-setup');
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Télécharger les codes' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('vigie-codes-de-secours.txt');
  expect(readFileSync(await file.path(), 'utf8')).toContain(recoveryCodes.join('\n'));
  await checkAtBothSizes(page, 'totp-recovery-codes');
  await section.getByRole('button', { name: 'J’ai mis mes codes en lieu sûr' }).click();
  await expect(section).toContainText(`Activée${NNBSP}: chaque connexion demande un code`);
  await expect(section.getByRole('list', { name: 'Codes de secours' })).toHaveCount(0);

  // Signing in now takes the password, then a code: a wrong one is refused in French.
  await page.getByRole('button', { name: 'Déconnexion' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  await loginThroughForm(page, who);
  const code = page.getByLabel('Code de vérification');
  await expect(code).toBeFocused();
  await expect(page).toHaveURL(/\/login$/);
  await checkAtBothSizes(page, 'totp-login');
  await code.fill('000000');
  await page.getByRole('button', { name: 'Vérifier le code' }).click();
  await expect(page.getByRole('alert')).toHaveText('Code incorrect, expiré ou déjà utilisé.');
  await code.fill(app.code());
  await page.getByRole('button', { name: 'Vérifier le code' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // A recovery code replaces the app once.
  await page.getByRole('button', { name: 'Déconnexion' }).click();
  await page.goto('/login');
  await loginThroughForm(page, who);
  await page.getByLabel('Code de vérification').fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Vérifier le code' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const again = await request.post('/api/auth/login', { data: { email: who.email, password: who.password } });
  const { challenge } = (await again.json()) as { challenge: string };
  const reused = await request.post('/api/auth/login/totp', { data: { challenge, code: recoveryCodes[0] } });
  expect(reused.status()).toBe(401);
  expect(((await reused.json()) as { message: string }).message).toBe('Code incorrect, expiré ou déjà utilisé.');

  // Now it can be required of every admin.
  await page.goto('/dashboard/equipe');
  await requirement.click();
  await expect(requirement).toBeChecked();
  await expect(
    page.getByRole('status').filter({ hasText: /^Enregistré\s: les administrateurs sans double authentification/ }),
  ).toBeVisible();
  await page.reload();
  await expect(requirement).toBeChecked();

  // An admin who joins afterwards reaches only « Mon compte » until they turn it on.
  const address = `admin-${Date.now().toString(36)}@vigie-e2e.fr`;
  // The session the recovery code opened, as the page keeps it.
  const headers = { Authorization: `Bearer ${await page.evaluate(() => window.localStorage.getItem('vigie_token'))}` };
  expect((await request.post('/api/invitations', { headers, data: { email: address, role: 'admin' } })).status()).toBe(201);
  await expect.poll(() => invitationLink(lastMailTo(address)), { timeout: 30_000 }).toMatch(/\/invitation#/);
  const token = (invitationLink(lastMailTo(address)) ?? '').split('#')[1];
  const accepted = await request.post('/api/invitations/accept', {
    data: { token, name: 'Noé Nouvel', password: 'une phrase de passe solide' },
  });
  expect(accepted.status(), await accepted.text()).toBe(201);
  const newcomerToken = ((await accepted.json()) as { accessToken: string }).accessToken;
  const refused = await request.get('/api/sensor', { headers: { Authorization: `Bearer ${newcomerToken}` } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe(
    'Votre organisation exige la double authentification des administrateurs : activez-la dans « Mon compte » pour continuer.',
  );

  const context = await browser.newContext({ baseURL });
  const newcomer = await context.newPage();
  await signInWithToken(newcomer, newcomerToken);
  await newcomer.goto('/dashboard');
  await expect(newcomer).toHaveURL(/\/dashboard\/compte$/);
  await expect(newcomer.getByTestId('totp-required')).toContainText(
    `exige la double authentification des administrateurs${NNBSP}: activez-la ci-dessous`,
  );
  // No navigation until two-factor authentication is on: the server refuses every other page.
  await expect(newcomer.getByRole('link', { name: 'Tableau de bord' })).toHaveCount(0);
  await expect(newcomer.getByRole('navigation')).toHaveCount(0);
  await checkAtBothSizes(newcomer, 'totp-required');
  await newcomer.goto('/dashboard/equipe');
  await expect(newcomer).toHaveURL(/\/dashboard\/compte$/);

  await enrol(newcomer);
  await newcomer.getByRole('button', { name: 'J’ai mis mes codes en lieu sûr' }).click();
  await expect(newcomer.getByTestId('totp-required')).toHaveCount(0);
  await sideMenu(newcomer).getByRole('link', { name: 'Tableau de bord' }).click();
  await expect(newcomer).toHaveURL(/\/dashboard$/);
  await expect(newcomer.getByRole('heading', { level: 1 })).toBeVisible();
  expect((await request.get('/api/sensor', { headers: { Authorization: `Bearer ${newcomerToken}` } })).status()).toBe(200);
  await context.close();
});

test('recovery codes: « Mon compte » counts those left and renews all ten given the password', async ({ page, request, login }) => {
  const who = account('recovery');
  await login('recovery', '/dashboard/compte');
  const { app, recoveryCodes } = await enrol(page);
  const section = page.getByRole('region', { name: 'Double authentification' });
  await section.getByRole('button', { name: 'J’ai mis mes codes en lieu sûr' }).click();
  const left = section.getByTestId('recovery-codes-left');
  await expect(left).toHaveText('10 codes de secours inutilisés sur 10.');

  // One spent on a sign-in elsewhere: the page read again counts nine.
  const password = await request.post('/api/auth/login', { data: { email: who.email, password: who.password } });
  const { challenge } = (await password.json()) as { challenge: string };
  expect((await request.post('/api/auth/login/totp', { data: { challenge, code: recoveryCodes[0] } })).status()).toBe(200);
  await page.reload();
  await expect(left).toHaveText('9 codes de secours inutilisés sur 10.');
  await checkAtBothSizes(page, 'totp-recovery-left');

  const renewal = section.getByRole('form', { name: 'Renouveler les codes de secours' });
  await renewal.getByRole('button', { name: 'Renouveler les codes de secours' }).click();
  await expect(renewal.getByRole('alert')).toHaveText('Saisissez votre mot de passe pour renouveler les codes de secours.');
  await renewal.getByLabel('Mot de passe').fill('pas le bon mot de passe');
  await renewal.getByRole('button', { name: 'Renouveler les codes de secours' }).click();
  await expect(renewal.getByRole('alert')).toHaveText('Le mot de passe actuel est incorrect.');
  await renewal.getByLabel('Mot de passe').fill(who.password);
  await renewal.getByRole('button', { name: 'Renouveler les codes de secours' }).click();

  const codes = section.getByRole('list', { name: 'Codes de secours' }).getByTestId('recovery-code');
  await expect(codes).toHaveCount(10);
  const fresh = (await codes.allTextContents()).map((code) => code.trim());
  expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
  await expect(section.getByText(`Nouveaux codes de secours${NNBSP}: les anciens ne fonctionnent plus.`)).toBeVisible();
  await checkAtBothSizes(page, 'totp-recovery-renewed');
  await section.getByRole('button', { name: 'J’ai mis mes codes en lieu sûr' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Vos nouveaux codes de secours sont prêts.' })).toBeVisible();
  await expect(left).toHaveText('10 codes de secours inutilisés sur 10.');

  // An old code no longer signs in; a new one does, with the app still as before.
  const again = async () =>
    (
      (await (await request.post('/api/auth/login', { data: { email: who.email, password: who.password } })).json()) as {
        challenge: string;
      }
    ).challenge;
  expect((await request.post('/api/auth/login/totp', { data: { challenge: await again(), code: recoveryCodes[1] } })).status()).toBe(401);
  expect((await request.post('/api/auth/login/totp', { data: { challenge: await again(), code: fresh[0] } })).status()).toBe(200);
  expect((await request.post('/api/auth/login/totp', { data: { challenge: await again(), code: app.code() } })).status()).toBe(200);
});

test('an admin resets the two-factor authentication of a member who lost their phone and codes', async ({ page, request, login }) => {
  const admin = await login('totp-reset', '/dashboard/equipe');
  const headers = { Authorization: `Bearer ${admin.token}` };
  // A manager joins by invitation and turns it on.
  const address = `manager-${Date.now().toString(36)}@vigie-e2e.fr`;
  expect((await request.post('/api/invitations', { headers, data: { email: address, role: 'manager' } })).status()).toBe(201);
  await expect.poll(() => invitationLink(lastMailTo(address)), { timeout: 30_000 }).toMatch(/\/invitation#/);
  const accepted = await request.post('/api/invitations/accept', {
    data: { token: (invitationLink(lastMailTo(address)) ?? '').split('#')[1], name: 'Lou Perdu', password: 'une phrase de passe solide' },
  });
  expect(accepted.status(), await accepted.text()).toBe(201);
  const memberAuth = { Authorization: `Bearer ${((await accepted.json()) as { accessToken: string }).accessToken}` };
  const { secret } = (await (await request.post('/api/user/totp/setup', { headers: memberAuth })).json()) as { secret: string };
  const enabled = await request.post('/api/user/totp/enable', { headers: memberAuth, data: { code: new Authenticator(secret).code() } });
  expect(enabled.status()).toBe(200);

  await page.reload();
  await page.getByRole('button', { name: 'Réinitialiser la double authentification de Lou Perdu' }).click();
  const dialog = page.getByRole('dialog', { name: `Réinitialiser la double authentification de Lou Perdu${NNBSP}?` });
  await expect(dialog).toContainText('se connecte ensuite avec son seul mot de passe');
  // The admin's own password confirms it; a wrong one is said in the dialog, which stays open.
  const password = dialog.getByLabel('Votre mot de passe');
  await expect(password).toBeFocused();
  await password.fill('pas le bon mot de passe');
  await dialog.getByRole('button', { name: 'Réinitialiser', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Le mot de passe actuel est incorrect.');
  expect((await request.get('/api/user/me', { headers: memberAuth })).status()).toBe(200);
  await password.fill(account('totp-reset').password);
  await checkAtBothSizes(page, 'team-totp-reset');
  await password.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: `Double authentification de Lou Perdu réinitialisée${NNBSP}: ses sessions sont fermées.` }),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect
    .poll(() => lastMailTo(address)?.subject ?? '', { timeout: 30_000 })
    .toBe('Votre double authentification Vigie a été réinitialisée');

  // Signed out everywhere; the password alone signs in again.
  expect((await request.get('/api/user/me', { headers: memberAuth })).status()).toBe(401);
  const again = await request.post('/api/auth/login', { data: { email: address, password: 'une phrase de passe solide' } });
  expect(Object.keys((await again.json()) as object)).toContain('accessToken');

  // Twice: the reason, in French.
  await page.getByRole('button', { name: 'Réinitialiser la double authentification de Lou Perdu' }).click();
  await dialog.getByLabel('Votre mot de passe').fill(account('totp-reset').password);
  await dialog.getByRole('button', { name: 'Réinitialiser', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    `Ce membre n’a pas activé la double authentification${NNBSP}: il n’y a rien à réinitialiser.`,
  );
});
