import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { account, type Account, type AccountKey } from './accounts';

export const TOKEN_KEY = 'vigie_token';
const screenshotDir = fileURLToPath(new URL('../screenshots', import.meta.url));

export type DeviceKind = 'emitter' | 'sensor';
export type Device = { id: string; name: string };

/** Direct API calls, to arrange data without going through the screens under test. */
export class Api {
  constructor(
    private readonly request: APIRequestContext,
    readonly token: string,
  ) {}

  static async login(request: APIRequestContext, who: Account): Promise<Api> {
    const response = await request.post('/api/auth/login', { data: { email: who.email, password: who.password } });
    expect(response.status(), await response.text()).toBe(200);
    return new Api(request, ((await response.json()) as { accessToken: string }).accessToken);
  }

  private get headers() {
    return { Authorization: `Bearer ${this.token}` };
  }

  async list(kind: DeviceKind): Promise<Device[]> {
    const response = await this.request.get(`/api/${kind}`, { headers: this.headers });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as Record<string, Device[]>;
    return body[kind === 'emitter' ? 'emitters' : 'sensors'] ?? [];
  }

  async create(kind: DeviceKind, name: string): Promise<Device> {
    const response = await this.request.post(`/api/${kind}`, { headers: this.headers, data: { name } });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as Record<string, Device>)[kind] as Device;
  }

  async remove(kind: DeviceKind, id: string): Promise<void> {
    const response = await this.request.delete(`/api/${kind}/${id}`, { headers: this.headers });
    expect(response.status()).toBe(204);
  }

  /** Leaves the organization without any device of either kind. */
  async clear(): Promise<void> {
    for (const kind of ['emitter', 'sensor'] as const) {
      for (const device of await this.list(kind)) await this.remove(kind, device.id);
    }
  }
}

/**
 * Opens the app already signed in: the token goes into local storage before the first page
 * script runs (once per tab, so that a later logout sticks).
 */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.addInitScript(
    ({ key, value }) => {
      if (window.sessionStorage.getItem('e2e-seeded') === '1') return;
      window.localStorage.setItem(key, value);
      window.sessionStorage.setItem('e2e-seeded', '1');
    },
    { key: TOKEN_KEY, value: token },
  );
}

/** Signs in through the login screen, as a person does. */
export async function loginThroughForm(page: Page, who: Pick<Account, 'email' | 'password'>): Promise<void> {
  await page.getByLabel('Adresse e-mail').fill(who.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Serious and critical accessibility violations on the current page. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Colours are judged at rest: a button half-way through its colour transition (just enabled by a
  // field being filled) is neither its old nor its new self. Endless animations are not waited for.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  // Axe in the page itself (its « legacy » mode): the default mode opens a blank tab for each
  // analysis to gather the frames' results, which took two thirds of each check's time here, for
  // pages that have no frame. Only the violations are read: axe then reports a single node for
  // passes and the other kinds instead of serialising every node of the page it checked.
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * Saves e2e/screenshots/<name>-<width>x<height>.png, for a person to look at: no test reads them.
 * `VIGIE_E2E_SCREENSHOTS=off` skips them (CI takes them on its first database only).
 */
export async function saveScreenshot(page: Page, name: string, fullPage = false): Promise<void> {
  if (process.env['VIGIE_E2E_SCREENSHOTS'] === 'off') return;
  mkdirSync(screenshotDir, { recursive: true });
  const viewport = page.viewportSize();
  const size = viewport ? `${viewport.width}x${viewport.height}` : 'default';
  await page.screenshot({ path: path.join(screenshotDir, `${name}-${size}.png`), fullPage, animations: 'disabled' });
}

/** Axe at 1280 and 375 px, nothing wider than the screen, and a full-page screenshot of each (`<name>-desktop|phone`). */
export async function checkAtBothSizes(page: Page, name: string): Promise<void> {
  for (const size of [
    { width: 1280, height: 800, label: 'desktop' },
    { width: 375, height: 812, label: 'phone' },
  ]) {
    await page.setViewportSize(size);
    expect(await seriousViolations(page), `${name} at ${size.width} px`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, `${name}-${size.label}`, true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

type Fixtures = {
  /** Signs `key`'s account in and opens `path` (default /dashboard); returns an API helper. */
  login: (key: AccountKey, path?: string) => Promise<Api>;
  apiAs: (key: AccountKey) => Promise<Api>;
};

export const test = base.extend<Fixtures>({
  login: async ({ page, request }, use) => {
    await use(async (key, target = '/dashboard') => {
      const api = await Api.login(request, account(key));
      await signInWithToken(page, api.token);
      await page.goto(target);
      return api;
    });
  },
  apiAs: async ({ request }, use) => {
    await use((key) => Api.login(request, account(key)));
  },
});

export { account, expect };
