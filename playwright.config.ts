import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CHROMIUM_ARGS, CHROMIUM_PATH, HEADLESS_SHELL_PATH } from './e2e/support/chromium';

// Debian's Chromium and its headless shell (or CHROMIUM_PATH): scripts/ensure-chromium.mjs installs
// them when missing.

// The specs whose outcome can depend on the database, and why (decision 0045). What differs between
// the embedded database and PostgreSQL: the event bus (in memory / LISTEN-NOTIFY), the readings'
// daily partitions and `reading_ids`, the rate limits' counters (in memory / a table), the job
// leases, and the caches each instance forgets on the bus's word. The API suite covers both
// databases route by route; the browser suite runs whole on the embedded database, and these specs
// again on PostgreSQL (`VIGIE_E2E_DATABASE_SPECS=only`).
const DATABASE_SPECS: Record<string, string> = {
  'alert-curve': 'the curve is read from the partitioned readings around the alert',
  alerts: 'alerts opened by the engine from stored readings, shown live through the bus',
  calibration: 'the corrected values read back from the stored readings and the register',
  'device-detail': 'the history buckets over the daily partitions; a revoked token forgotten on the bus',
  fleet: '10 000 sensors: the list query, its counts and a live change through the bus',
  live: 'devices and readings shown within a second through the bus (LISTEN/NOTIFY on PostgreSQL)',
  lorawan: 'uplinks deduplicated in the database, pending frames adopted, the next frame live',
  'password-reset': 'the old sessions refused once their revocation is heard on the bus',
  'predicted-alert': 'the forecast pass holds its lease in the database and opens the alert',
  reports: 'the month aggregated from the partitioned readings, the PDF and its signature stored',
  scopes: 'a scoped member’s caches and stream, forgotten and filtered through the bus',
  team: 'a new member’s role cached per instance and forgotten on the bus',
};
for (const name of Object.keys(DATABASE_SPECS)) {
  if (!existsSync(`e2e/${name}.spec.ts`)) throw new Error(`DATABASE_SPECS names e2e/${name}.spec.ts, which does not exist`);
}
const databaseOnly = process.env['VIGIE_E2E_DATABASE_SPECS'] === 'only';
const databaseSpecs = new RegExp(`/(${Object.keys(DATABASE_SPECS).join('|')})\\.spec\\.ts$`);
const onlyDatabaseSpecs = databaseOnly ? { testMatch: databaseSpecs } : {};
// The 10 000-sensor fleet: on PostgreSQL, or when asked.
const fleetHere = Boolean(process.env['DATABASE_URL']) || process.env['VIGIE_E2E_FLEET'] === 'on';
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
    // The filter of VIGIE_E2E_DATABASE_SPECS is in the project, not on the command line: the fleet
    // project depends on it, and Playwright runs a dependency whole, whatever the command's filter.
    { name: 'chromium', testIgnore: [/fleet\.spec\.ts$/, FULL_BROWSER], ...onlyDatabaseSpecs },
    // Notifications and push exist only in the full browser, not in its headless shell; what they
    // check depends on no database.
    ...(databaseOnly
      ? []
      : [
          {
            name: 'chromium-full',
            testMatch: FULL_BROWSER,
            use: { launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
          },
        ]),
    // 10 000 sensors are created through the API: alone, once every other test has run, so that
    // this load never slows another test's live updates. On PostgreSQL only (decision 0045): a
    // chain of that size runs on it; the embedded database at 10 000 sensors is measured by
    // `npm run bench:fleet`. VIGIE_E2E_FLEET=on runs it on the embedded database too.
    ...(fleetHere
      ? [
          {
            name: 'fleet',
            testMatch: /fleet\.spec\.ts$/,
            dependencies: databaseOnly ? ['chromium'] : ['chromium', 'chromium-full'],
          },
        ]
      : []),
  ],
});
