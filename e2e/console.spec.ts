/**
 * The production build under the server's strict Content Security Policy (script-src 'self',
 * style-src 'self'): no screen triggers a CSP violation, a console error or an uncaught error.
 */
import { expect, test } from './support/fixtures';

test('no CSP violation nor console error on any screen', async ({ page, login }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (answer) => {
    if (answer.status() >= 400) problems.push(`${answer.status()} ${new URL(answer.url()).pathname}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber} on ${location.pathname}`,
      );
    });
  });

  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.mouse.move(600, 400, { steps: 3 });
  await page.getByRole('button', { name: 'En savoir plus' }).click();

  await page.goto('/login');
  await page.getByLabel('Adresse e-mail').fill('camille@boutique.fr');
  await expect(page.getByText('Email valide')).toBeVisible();

  for (const code of ['404', '503']) {
    await page.goto(`/error/${code}`);
    await expect(page.getByTestId('error-code')).toHaveText(code);
  }

  await login('showcase');
  await expect(page.getByTestId('device-card').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Capteurs' }).click();
  await expect(page.getByTestId('device-card').first()).toBeVisible();
  // « Mon compte », where this browser is offered the pushed alerts.
  await page.goto('/dashboard/compte');
  await expect(page.getByTestId('push-panel')).toBeVisible();

  expect(problems).toEqual([]);
});
