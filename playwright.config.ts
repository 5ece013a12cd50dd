import { defineConfig } from '@playwright/test';
import { availableParallelism } from 'node:os';
import { CHROMIUM_ARGS, CHROMIUM_PATH, HEADLESS_SHELL_PATH } from './e2e/support/chromium';

// Debian's Chromium and its headless shell (or CHROMIUM_PATH): scripts/ensure-chromium.mjs installs
// them when missing.

const skipTag = process.env['VIGIE_E2E_SKIP_TAG'];
const skipTagged = skipTag ? { grepInvert: new RegExp(skipTag) } : {};
// The specs that need the full browser rather than its headless shell.
const FULL_BROWSER = /push\.spec\.ts$/;

export default defineConfig({
  testDir: './e2e',
  // Starts the real server on the production build with fresh accounts; sets the base URL.
  globalSetup: './e2e/support/global-setup.ts',
  // Files spread over the workers, each file's tests in order: several files' tests check live
  // updates within seconds, which a machine running one browser per core plus the server can
  // still give, but not with every test of a file competing at once.
  fullyParallel: false,
  forbidOnly: Boolean(process.env['CI']),
  // One browser per core: the server under test shares the machine and mostly waits on them.
  workers: availableParallelism(),
  // In CI a failed test runs once more: a few checks of live updates within a second or two can
  // miss on a 2-core machine shared by two browsers and the server; a test that fails twice fails.
  retries: process.env['CI'] ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    // Set by the global setup in this process before the workers start.
    baseURL: process.env['VIGIE_E2E_BASE_URL'],
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: 1280, height: 800 },
    // Reduced motion, as a person may ask of their system: the decorative animations and
    // transitions are then skipped, and rendering them in software (no GPU here) was a third of
    // the suite's time. The tests of the animations themselves ask for motion again.
    reducedMotion: 'reduce',
    // The app's service worker answers some reads from its cache, which `page.route()` cannot see:
    // blocked, except in the specs of the worker itself (offline, push, installation).
    serviceWorkers: 'block',
    // In CI a failed test runs again with a trace; recording one for every test that passes cost
    // about 5 % of the suite's time. Locally, where nothing is retried, the failure keeps its own.
    trace: process.env['CI'] ? 'on-first-retry' : 'retain-on-failure',
    // The headless shell: the same rendering for about half the processor time (e2e/support/chromium.ts).
    launchOptions: {
      executablePath: HEADLESS_SHELL_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    // VIGIE_E2E_SKIP_TAG=@apparence leaves out the tests of that tag (CI's PostgreSQL run: the look
    // of the screens depends on no database). In the project itself, not `--grep-invert`: the fleet
    // project depends on this one, and Playwright runs a dependency whole, whatever the command's filter.
    { name: 'chromium', testIgnore: [/fleet\.spec\.ts$/, FULL_BROWSER], ...skipTagged },
    // Notifications and push exist only in the full browser, not in its headless shell.
    {
      name: 'chromium-full',
      testMatch: FULL_BROWSER,
      use: { launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
      ...skipTagged,
    },
    // 10 000 sensors are created through the API: alone, once every other test has run, so that
    // this load never slows another test's live updates.
    { name: 'fleet', testMatch: /fleet\.spec\.ts$/, dependencies: ['chromium', 'chromium-full'] },
  ],
});
