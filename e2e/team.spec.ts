/**
 * The team, end to end with a real SMTP server: an admin invites an address as « Lecteur » from
 * « Équipe »; the e-mail's link opens the invitation page in another browser; the person chooses
 * a name and a password, lands on the dashboard, and can only read: no control to add, rename or
 * delete anything shows, and the API refuses them (403).
 */
import type { Page } from '@playwright/test';
import { account, expect, saveScreenshot, seriousViolations, test, TOKEN_KEY } from './support/fixtures';
import { invitationLink, lastMailTo } from './support/mail';
import { sideMenu } from './support/navigation';

// Two browsers, e-mail delivery and four axe analyses: slow on a busy machine.
test.describe.configure({ timeout: 150_000, mode: 'serial' });

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
];

/** axe at 1280 and 375 px, with a screenshot of each. */
async function checkAtBothSizes(page: Page, screenshot: string) {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    expect(await seriousViolations(page), `${screenshot} at ${size.width} px`).toEqual([]);
    await saveScreenshot(page, `${screenshot}-${size.name}`, true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** What a viewer must never be offered, wherever they are. */
const CHANGE_CONTROLS =
  /^(Ajouter|Supprimer|Renommer|Générer un nouveau jeton|Enregistrer le délai|Règle personnalisée|Restaurer|Régénérer)/;

test('an admin invites a viewer by e-mail, who joins from the link and can only read', async ({
  page,
  browser,
  request,
  login,
  baseURL,
}) => {
  const admin = await login('team');
  const organization = account('team').org;
  const sensorName = `Vitrine crèmerie ${Date.now().toString(36)}`;
  await admin.create('sensor', sensorName);

  // « Équipe » is in the admin's navigation.
  await sideMenu(page).getByRole('link', { name: 'Équipe' }).click();
  await expect(page).toHaveURL(/\/dashboard\/equipe$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Équipe' })).toBeVisible();
  const members = page.getByRole('list', { name: 'Membres de l’équipe' });
  await expect(members.getByTestId('member')).toHaveCount(1);
  // The only admin can be neither removed nor demoted: no control that could only fail.
  await expect(members.getByTestId('member')).toContainText('Seul administrateur\u202F: ne peut être ni retiré ni rétrogradé');
  await expect(members.getByRole('combobox')).toHaveCount(0);

  // French validation before anything is sent.
  const form = page.getByRole('form', { name: 'Inviter un membre' });
  await form.getByLabel('Adresse e-mail').fill('pas-une-adresse');
  await form.getByRole('button', { name: 'Envoyer l’invitation' }).click();
  await expect(form.getByRole('alert')).toContainText('L’adresse e-mail n’est pas valide');

  // The admin's own address already has an account: the server's 409 message shows.
  await form.getByLabel('Adresse e-mail').fill(account('team').email);
  await form.getByRole('button', { name: 'Envoyer l’invitation' }).click();
  await expect(form.getByRole('alert')).toHaveText(/\S/);
  await expect(form.getByRole('alert')).not.toContainText('n’est pas valide');

  const address = `lecteur-${Date.now().toString(36)}@vigie.test`;
  await form.getByLabel('Adresse e-mail').fill(address);
  await form.getByLabel('Rôle').selectOption({ label: 'Lecteur' });
  await form.getByRole('button', { name: 'Envoyer l’invitation' }).click();
  await expect(form.getByRole('status')).toHaveText(`Invitation envoyée à ${address} (Lecteur).`);
  const pending = page.getByTestId('invitation').filter({ hasText: address });
  await expect(pending).toContainText('Lecteur');
  await expect(pending).toContainText(/Expire le \d{1,2}(er)? \p{L}+ \d{4}/u);
  await expect(pending.getByRole('button', { name: `Renvoyer l’invitation de ${address}` })).toBeVisible();
  await expect(pending.getByRole('button', { name: `Révoquer l’invitation de ${address}` })).toBeVisible();
  await checkAtBothSizes(page, 'team');

  // The e-mail arrives through the SMTP server, with its link.
  await expect.poll(() => invitationLink(lastMailTo(address)), { timeout: 30_000 }).toMatch(/\/invitation#[A-Za-z0-9_-]{20,}$/);
  const link = invitationLink(lastMailTo(address)) ?? '';
  expect(link.startsWith(`${baseURL}/invitation#`)).toBe(true);

  // The invited person opens it in their own browser.
  const context = await browser.newContext({
    baseURL,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: 1280, height: 800 },
  });
  try {
    const viewer = await context.newPage();
    await viewer.goto(link);
    await expect(viewer.getByRole('heading', { level: 1, name: `Rejoindre ${organization}` })).toBeVisible();
    await expect(viewer.getByText(address)).toBeVisible();
    await expect(viewer.getByText('Lecteur', { exact: true })).toBeVisible();
    await expect(viewer.getByText(/Au moins 8\s?caractères/)).toBeVisible();
    await checkAtBothSizes(viewer, 'invitation');

    // Too short a password: said, and the focus goes to the field.
    await viewer.getByLabel('Nom').fill('Léa Lectrice');
    await viewer.getByLabel('Mot de passe', { exact: true }).fill('court');
    await viewer.getByRole('button', { name: 'Rejoindre l’équipe' }).click();
    await expect(viewer.getByRole('alert')).toContainText('au moins 8 caractères');
    await expect(viewer.getByLabel('Mot de passe', { exact: true })).toBeFocused();
    await viewer.getByRole('button', { name: 'Afficher le mot de passe' }).click();
    await expect(viewer.getByLabel('Mot de passe', { exact: true })).toHaveAttribute('type', 'text');

    await viewer.getByLabel('Mot de passe', { exact: true }).fill('une phrase assez longue');
    await viewer.getByRole('button', { name: 'Rejoindre l’équipe' }).click();
    await expect(viewer).toHaveURL(/\/dashboard$/);
    await expect(viewer.getByRole('banner')).toContainText('Léa Lectrice');
    await expect(viewer.getByRole('banner')).toContainText(organization);

    // The dashboard, read-only: the devices show, no control to change them does.
    await viewer.getByRole('tab', { name: /Capteurs/ }).click();
    const card = viewer.getByTestId('device-card').filter({ hasText: sensorName });
    await expect(card).toBeVisible();
    await expect(viewer.getByRole('button', { name: CHANGE_CONTROLS })).toHaveCount(0);
    await viewer.getByRole('tab', { name: /Émetteurs/ }).click();
    await expect(viewer.getByRole('button', { name: CHANGE_CONTROLS })).toHaveCount(0);
    // The menu is there, without what a viewer may not open; nor does the dashboard offer to install.
    await expect(sideMenu(viewer).getByRole('link', { name: 'Tableau de bord' })).toBeVisible();
    await expect(viewer.getByRole('link', { name: 'Installer un appareil' })).toHaveCount(0);
    await expect(viewer.getByRole('link', { name: 'Équipe' })).toHaveCount(0);
    await saveScreenshot(viewer, 'team-viewer-dashboard');

    // A sensor's page, read-only too.
    await viewer.getByRole('tab', { name: /Capteurs/ }).click();
    await card.getByRole('link', { name: sensorName }).click();
    await expect(viewer.getByRole('heading', { level: 1, name: sensorName })).toBeVisible();
    await expect(viewer.getByRole('region', { name: 'Règles d’alerte' })).toBeVisible();
    await expect(viewer.getByRole('region', { name: 'Règles d’alerte' }).getByRole('button')).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: CHANGE_CONTROLS })).toHaveCount(0);
    await expect(viewer.getByRole('region', { name: 'Réglages' })).toHaveCount(0);
    await expect(viewer.getByRole('region', { name: 'Jeton de l’appareil' })).toHaveCount(0);
    await expect(viewer.getByLabel('Nom de l’appareil')).toHaveCount(0);
    await saveScreenshot(viewer, 'team-viewer-sensor', true);

    // « Équipe » opened by address: a clear message, no control.
    await viewer.goto('/dashboard/equipe');
    await expect(viewer.getByText(/Seuls les administrateurs gèrent l’équipe/)).toBeVisible();
    await expect(viewer.getByRole('form', { name: 'Inviter un membre' })).toHaveCount(0);
    await expect(viewer.getByRole('combobox')).toHaveCount(0);

    // The server refuses what the screens no longer offer.
    const token = await viewer.evaluate((key) => window.localStorage.getItem(key), TOKEN_KEY);
    expect(token).toBeTruthy();
    const created = await request.post('/api/sensor', { headers: { Authorization: `Bearer ${token}` }, data: { name: 'Intrus' } });
    expect(created.status(), await created.text()).toBe(403);
    expect(((await created.json()) as { message?: unknown }).message).toEqual(expect.any(String));
  } finally {
    await context.close();
  }

  // Back on « Équipe », the admin sees the new member as « Lecteur », and no pending invitation for them.
  await page.reload();
  const joined = page.getByTestId('member').filter({ hasText: address });
  await expect(joined).toContainText('Léa Lectrice');
  await expect(joined.getByLabel('Rôle de Léa Lectrice')).toHaveValue('viewer');
  await expect(page.getByTestId('invitation').filter({ hasText: address })).toHaveCount(0);
});

test('an unknown invitation link says so, with a way back home', async ({ page }) => {
  await page.goto('/invitation#ceci-n-est-pas-une-invitation-valable');
  await expect(page.getByRole('alert')).not.toBeEmpty();
  await expect(page.getByLabel('Nom')).toHaveCount(0);
  await page.getByRole('link', { name: 'Retourner à l’accueil' }).click();
  await expect(page).toHaveURL(/\/$/);
});
