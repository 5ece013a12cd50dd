/**
 * Spec §2 "/dashboard (protected)" lists, §3 entities, §4 "Dashboard" states, §7 calls,
 * §8 "Dashboard" errors, §9 skeleton count.
 *
 * - both lists fetched when the dashboard opens                          → "fetches both lists"
 * - 8 skeleton cards while loading                                        → "skeletons"
 * - tabs Émetteurs (default) / Capteurs, with counts, keyboard            → "tabs"
 * - heading with the item count, add button, cards with name,
 *   'Transmitter device' / 'Sensor device' and a delete button            → "cards"
 * - name 'Unnamed' when absent                                            → "unnamed"
 * - creating: 'Création...', POST {name:'New transmitter'}, appended      → "create transmitter"
 * - POST {name:'New sensor'}                                               → "create sensor"
 * - deleting one id at a time, busy button, deletes disabled, removed     → "delete"
 * - red alert with the latest action error (create)                       → "create failure"
 * - delete failure shows the server's text                                → "delete failure"
 * - the error is cleared at the start of each action                      → "error cleared"
 * - list loading failure                                                  → "load failure"
 * - device names are text, never markup                                  → "xss"
 * - empty list: title, description, add action                            → "empty state", "add from empty state"
 */
import type { Page, Route } from '@playwright/test';
import { expect, test, type Api } from './support/fixtures';

// Its tests share one account's data: in order, in one worker.
test.describe.configure({ mode: 'default' });

const cards = (page: Page) => page.getByTestId('device-card');
const hold = () => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
};

test.describe('with devices', () => {
  let api: Api;

  test.beforeEach(async ({ apiAs }) => {
    api = await apiAs('dashboard');
    await api.clear();
    await api.create('emitter', 'Passerelle Lyon');
    await api.create('emitter', 'Passerelle Paris');
    await api.create('sensor', 'Vitrine froide');
  });

  test('fetches both lists', async ({ page, login }) => {
    const lists: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === 'GET' && (path === '/api/emitter' || path === '/api/sensor')) {
        lists.push(`${path} ${request.headers()['authorization'] ? 'bearer' : 'anonymous'}`);
      }
    });
    await login('dashboard');
    await expect(cards(page)).toHaveCount(2);
    await expect(page.getByRole('tab', { name: /Capteurs\s*1/ })).toBeVisible();
    expect(lists.sort()).toEqual(['/api/emitter bearer', '/api/sensor bearer']);
  });

  test('skeletons', async ({ page, login }) => {
    const { held, release } = hold();
    await page.route('**/api/emitter', async (route) => {
      await held;
      await route.continue();
    });
    await login('dashboard');
    await expect(page.getByTestId('skeleton-card')).toHaveCount(8);
    release();
    await expect(cards(page)).toHaveCount(2);
    await expect(page.getByTestId('skeleton-card')).toHaveCount(0);
  });

  test('tabs', async ({ page, login }) => {
    await login('dashboard');
    const tablist = page.getByRole('tablist');
    const emitters = tablist.getByRole('tab', { name: 'Émetteurs' });
    const sensors = tablist.getByRole('tab', { name: 'Capteurs' });
    await expect(emitters).toHaveAttribute('aria-selected', 'true');
    await expect(sensors).toHaveAttribute('aria-selected', 'false');
    await expect(emitters).toContainText('2');
    await expect(sensors).toContainText('1');
    await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 })).toHaveText('Émetteurs (2)');

    await sensors.click();
    await expect(sensors).toHaveAttribute('aria-selected', 'true');
    await expect(emitters).toHaveAttribute('aria-selected', 'false');
    await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 })).toHaveText('Capteurs (1)');
    await expect(cards(page)).toHaveCount(1);
    await expect(page.getByRole('tabpanel')).toContainText('Vitrine froide');

    await page.keyboard.press('ArrowLeft');
    await expect(emitters).toBeFocused();
    await expect(emitters).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowRight');
    await expect(sensors).toBeFocused();
    await expect(sensors).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Home');
    await expect(emitters).toHaveAttribute('aria-selected', 'true');
  });

  test('cards', async ({ page, login }) => {
    await login('dashboard');
    await expect(page).toHaveTitle('Tableau de bord · Vigie');
    await expect(page.getByRole('heading', { level: 2, name: 'Émetteurs (2)' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ajouter un émetteur' })).toBeEnabled();
    const first = cards(page).first();
    await expect(first).toContainText('Passerelle Lyon');
    await expect(first).toContainText('Transmitter device');
    await expect(first.getByRole('button', { name: 'Supprimer Passerelle Lyon' })).toBeVisible();

    await page.getByRole('tab', { name: 'Capteurs' }).click();
    await expect(cards(page).first()).toContainText('Sensor device');
    await expect(page.getByRole('button', { name: 'Ajouter un capteur' })).toBeVisible();
  });

  test('unnamed', async ({ page, login }) => {
    // The server never stores a nameless device: the list answer is altered, and the live
    // stream, which would bring the real name back, is kept out.
    await page.route('**/api/stream', (route) => route.abort());
    await page.route('**/api/emitter', async (route) => {
      const response = await route.fetch();
      const { emitters } = (await response.json()) as { emitters: Record<string, unknown>[] };
      await route.fulfill({
        response,
        json: { emitters: emitters.map((emitter, index) => (index === 0 ? { ...emitter, name: undefined } : emitter)) },
      });
    });
    await login('dashboard');
    await expect(cards(page).first()).toContainText('Unnamed');
    await expect(page.getByRole('button', { name: 'Supprimer Unnamed' })).toBeVisible();
  });

  test('create transmitter', async ({ page, login }) => {
    const { held, release } = hold();
    const posted: unknown[] = [];
    await page.route('**/api/emitter', async (route: Route) => {
      if (route.request().method() === 'POST') {
        posted.push(route.request().postDataJSON());
        await held;
      }
      await route.continue();
    });
    await login('dashboard');
    await expect(cards(page)).toHaveCount(2);

    await page.getByRole('button', { name: 'Ajouter un émetteur' }).click();
    const busy = page.getByRole('button', { name: 'Création...' });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    release();

    await expect(cards(page)).toHaveCount(3);
    await expect(cards(page).last()).toContainText('New transmitter');
    await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 })).toHaveText('Émetteurs (3)');
    await expect(page.getByRole('tab', { name: 'Émetteurs' })).toContainText('3');
    expect(posted).toEqual([{ name: 'New transmitter' }]);
    // Stored by the server, not only on screen.
    expect((await api.list('emitter')).map((device) => device.name)).toEqual(['Passerelle Lyon', 'Passerelle Paris', 'New transmitter']);
  });

  test('create sensor', async ({ page, login }) => {
    await login('dashboard');
    await page.getByRole('tab', { name: 'Capteurs' }).click();
    await expect(cards(page)).toHaveCount(1);
    await page.getByRole('button', { name: 'Ajouter un capteur' }).click();
    await expect(cards(page)).toHaveCount(2);
    await expect(cards(page).last()).toContainText('New sensor');
    await expect(cards(page).last()).toContainText('Sensor device');
    expect((await api.list('sensor')).map((device) => device.name)).toEqual(['Vitrine froide', 'New sensor']);
  });

  test('delete', async ({ page, login }) => {
    const { held, release } = hold();
    await page.route('**/api/emitter/*', async (route) => {
      if (route.request().method() === 'DELETE') await held;
      await route.continue();
    });
    await login('dashboard');
    await expect(cards(page)).toHaveCount(2);

    const target = page.getByRole('button', { name: 'Supprimer Passerelle Lyon' });
    await target.click();
    await expect(target).toHaveAttribute('aria-busy', 'true');
    await expect(target).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Supprimer Passerelle Paris' })).toBeDisabled();
    release();

    await expect(cards(page)).toHaveCount(1);
    await expect(page.getByText('Passerelle Lyon')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Supprimer Passerelle Paris' })).toBeEnabled();
    expect((await api.list('emitter')).map((device) => device.name)).toEqual(['Passerelle Paris']);
  });

  test('create failure', async ({ page, login }) => {
    await page.route('**/api/sensor', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 503, json: { message: 'La base de données ne répond pas.' } })
        : route.continue(),
    );
    await login('dashboard');
    await page.getByRole('tab', { name: 'Capteurs' }).click();
    await page.getByRole('button', { name: 'Ajouter un capteur' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText('La base de données ne répond pas.');
    // Red.
    const [r, g, b] = await alert.evaluate((element) => {
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      context.fillStyle = getComputedStyle(element).borderTopColor;
      context.fillRect(0, 0, 1, 1);
      return Array.from(context.getImageData(0, 0, 1, 1).data);
    });
    expect(r).toBeGreaterThan(Math.max(g ?? 0, b ?? 0) + 60);
    await expect(cards(page)).toHaveCount(1);
  });

  test('delete failure', async ({ page, login }) => {
    // Without the live stream, the page cannot learn of the removal below before the click.
    await page.route('**/api/stream', (route) => route.abort());
    await login('dashboard');
    await expect(cards(page)).toHaveCount(2);
    // Someone else removed it in the meantime: the server answers 404 with its message.
    const [gone] = await api.list('emitter');
    await api.remove('emitter', gone?.id ?? '');
    await page.getByRole('button', { name: 'Supprimer Passerelle Lyon' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toBeVisible();
    const text = (await alert.textContent()) ?? '';
    expect(text.length).toBeGreaterThan(5);
    expect(text).not.toMatch(/[{}]|HTTP/);
  });

  test('error cleared', async ({ page, login }) => {
    let fail = true;
    await page.route('**/api/emitter', (route) =>
      route.request().method() === 'POST' && fail
        ? route.fulfill({ status: 500, json: { message: 'Échec côté serveur.' } })
        : route.continue(),
    );
    await login('dashboard');
    await page.getByRole('button', { name: 'Ajouter un émetteur' }).click();
    await expect(page.getByRole('alert')).toHaveText('Échec côté serveur.');

    fail = false;
    const { held, release } = hold();
    await page.route('**/api/emitter/*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Supprimer Passerelle Paris' }).click();
    // Cleared as soon as the next action starts, before its answer.
    await expect(page.getByRole('alert')).toHaveCount(0);
    release();
    await expect(cards(page)).toHaveCount(1);
  });

  test('load failure', async ({ page, login }) => {
    await page.route('**/api/sensor', (route) => route.fulfill({ status: 503, json: { message: 'Service momentanément indisponible.' } }));
    await login('dashboard');
    await expect(cards(page)).toHaveCount(2);
    await page.getByRole('tab', { name: 'Capteurs' }).click();
    await expect(page.getByRole('alert')).toContainText('Service momentanément indisponible.');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.getByRole('button', { name: 'Réessayer' }).click();
    await expect(cards(page)).toHaveCount(1);
  });
});

test('xss', async ({ page, login, apiAs }) => {
  const api = await apiAs('xss');
  await api.clear();
  const hostile = ['<img src=x onerror="window.__xss=1">', '<script>window.__xss=2</script>', '"><svg onload="window.__xss=3">'];
  for (const name of hostile) await api.create('emitter', name);
  await login('xss');
  await expect(cards(page)).toHaveCount(3);
  for (const name of hostile) {
    await expect(cards(page).filter({ hasText: name })).toHaveCount(1);
    await expect(page.getByRole('button', { name: `Supprimer ${name}` })).toBeVisible();
  }
  await expect(
    page.locator('[data-testid="device-card"] img, [data-testid="device-card"] script, [data-testid="device-card"] svg[onload]'),
  ).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test('empty state', async ({ page, login }) => {
  await login('empty');
  await expect(page.getByRole('heading', { name: 'Aucun émetteur pour l’instant' })).toBeVisible();
  await expect(page.getByText('Les émetteurs relaient les mesures')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ajouter votre premier émetteur' })).toBeEnabled();
  await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 })).toHaveText('Émetteurs (0)');
  await page.getByRole('tab', { name: 'Capteurs' }).click();
  await expect(page.getByRole('heading', { name: 'Aucun capteur pour l’instant' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ajouter votre premier capteur' })).toBeEnabled();
});

test('add from empty state', async ({ page, login, apiAs }) => {
  const api = await apiAs('empty-add');
  await api.clear();
  await login('empty-add');
  await page.getByRole('button', { name: 'Ajouter votre premier émetteur' }).click();
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page)).toContainText('New transmitter');
  await expect(page.getByRole('heading', { name: 'Aucun émetteur pour l’instant' })).toHaveCount(0);
});
