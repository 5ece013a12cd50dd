/**
 * A forgotten password, end to end: « Mot de passe oublié ? » on the login page, the same answer
 * for a known and an unknown address, the e-mail through the real SMTP server, the link that sets
 * a new password once, the sessions opened with the old one refused, and signing in with the new
 * one. Axe scans and screenshots of both screens at 1280 and 375 px.
 */
import type { Page } from '@playwright/test';
import { account, checkAtBothSizes, expect, loginThroughForm, test } from './support/fixtures';
import { lastMailTo, resetLink } from './support/mail';

test.describe.configure({ timeout: 120_000 });

async function askForLink(page: Page, email: string): Promise<string> {
  await page.goto('/login');
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByRole('link', { name: /^Mot de passe oublié\s\?$/ }).click();
  await expect(page).toHaveURL(/\/mot-de-passe-oublie$/);
  // The router keeps the login page on screen while the next one loads: its own field has the same label.
  await expect(page.getByRole('heading', { level: 1, name: 'Mot de passe oublié' })).toBeVisible();
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByRole('button', { name: 'Recevoir un lien' }).click();
  const answer = page.getByRole('status');
  await expect(answer).not.toBeEmpty();
  return (await answer.textContent()) ?? '';
}

test('a forgotten password is reset from the e-mailed link, once, and the old sessions end', async ({ page, request, apiAs }) => {
  const who = account('reset');
  const before = await apiAs('reset');

  // An unknown address and a known one get the same answer: nothing tells which has an account.
  const unknown = await askForLink(page, `personne-${Date.now().toString(36)}@vigie-e2e.fr`);
  const known = await askForLink(page, who.email);
  expect(known).toBe(unknown);
  await checkAtBothSizes(page, 'forgot-password-sent');

  await expect.poll(() => resetLink(lastMailTo(who.email)), { timeout: 30_000 }).toMatch(/\/reinitialiser-mot-de-passe#/);
  const link = resetLink(lastMailTo(who.email)) ?? '';
  await page.goto(link);
  const fresh = 'une nouvelle phrase de passe';
  await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('court');
  await page.getByLabel('Confirmez le nouveau mot de passe').fill('court');
  await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(page.getByRole('alert')).toContainText('Le mot de passe doit contenir au moins 8 caractères.');
  await checkAtBothSizes(page, 'reset-password');
  await page.getByLabel('Nouveau mot de passe', { exact: true }).fill(fresh);
  await page.getByLabel('Confirmez le nouveau mot de passe').fill(fresh);
  await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(page.getByRole('status')).toContainText('Mot de passe changé. Connectez-vous avec le nouveau.');

  // The session opened with the old password is refused at once; the old password too.
  expect((await request.get('/api/user/me', { headers: { Authorization: `Bearer ${before.token}` } })).status()).toBe(401);
  expect((await request.post('/api/auth/login', { data: { email: who.email, password: who.password } })).status()).toBe(401);

  await page.getByRole('link', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await loginThroughForm(page, { email: who.email, password: fresh });
  await expect(page).toHaveURL(/\/dashboard$/);

  // The link served once.
  await page.getByRole('button', { name: 'Déconnexion' }).click();
  await page.goto(link);
  await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('encore une autre phrase');
  await page.getByLabel('Confirmez le nouveau mot de passe').fill('encore une autre phrase');
  await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Demander un nouveau lien' })).toBeVisible();
  expect((await request.post('/api/auth/login', { data: { email: who.email, password: fresh } })).status()).toBe(200);
});
