/**
 * A chain's dashboard: 10 000 sensors in one organization (through the API, most of them written
 * straight into PostgreSQL when it is the database). The counts
 * are the true ones, only the cards near the screen are in the page, any sensor is found by name
 * or serial, « Problèmes d’abord » brings the one in trouble to the top, and its card changes live.
 *
 * Its own project runs it last, alone; run it by itself with `npx playwright test --project fleet --no-deps`.
 */
import pg from 'pg';
import { BASE_URL_ENV } from './support/accounts';
import { account, Api, expect, signInWithToken, test } from './support/fixtures';
import { DeviceProtocol, sendTelemetry, uniqueSerial } from './support/telemetry';

const FLEET = 10_000;
const CONCURRENCY = 16;

test.describe.configure({ mode: 'serial', timeout: 600_000 });

let token: string;
let witness: { name: string; serial: string; accessToken: string };

test.beforeAll(async ({ request }, testInfo) => {
  testInfo.setTimeout(600_000);
  const started = Date.now();
  const api = await Api.login(request, account('fleet'));
  token = api.token;
  const protocol = new DeviceProtocol(request, api.token);
  const serial = uniqueSerial('FLOTTE');
  const name = 'Chambre froide témoin';
  const provisioned = await protocol.provision({ serial, kind: 'sensor', name, model: 'TH-1' });
  witness = { name, serial, accessToken: provisioned.accessToken };
  // The other 9 999. The first and the last as an integrator's script would add them, through the
  // API; on PostgreSQL, those between are written straight into the database, as copies of the
  // first one's row with their own names (9 997 requests took 70 to 90 s of this suite, and what is
  // checked here is the dashboard that reads them; creation through the API is the API suite's).
  // The last request through the API comes after them, so that each instance's cache of the list
  // forgets it on the bus's word, as for any new sensor.
  const baseUrl = testInfo.project.use.baseURL ?? process.env[BASE_URL_ENV];
  const create = async (n: number): Promise<string> => {
    const response = await fetch(`${baseUrl}/api/sensor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.token}` },
      body: JSON.stringify({ name: `Sonde ${n}` }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(201);
    return (JSON.parse(text) as { sensor: { id: string } }).sensor.id;
  };
  const databaseUrl = process.env['DATABASE_URL'];
  if (databaseUrl) {
    const first = await create(1);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const inserted = await client.query(
        `insert into sensors (organization_id, site_id, name, created_at, updated_at)
         select organization_id, site_id, 'Sonde ' || n, clock_timestamp(), clock_timestamp()
         from sensors, generate_series(2, $2::int) as n where id = $1 order by n`,
        [first, FLEET - 2],
      );
      expect(inserted.rowCount).toBe(FLEET - 3);
    } finally {
      await client.end();
    }
    await create(FLEET - 1);
  } else {
    // The embedded database is locked by the server: every sensor through the API, 16 requests at a
    // time (through Playwright's request context, the test process itself was the bottleneck: 30/s).
    let next = 1;
    const worker = async () => {
      for (let n = next++; n < FLEET; n = next++) await create(n);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
  console.log(`${FLEET - 1} capteurs créés en ${Math.round((Date.now() - started) / 1000)} s`);
});

test('10 000 sensors: true counts, a light page, search, filters, problems first and a live update', async ({ page, request }) => {
  await signInWithToken(page, token);
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/stream');
  await page.goto('/dashboard');
  expect((await streamOpen).status()).toBe(200);
  await page.getByRole('tab', { name: /Capteurs/ }).click();

  // The true count, in French notation, in the tab, the heading and the list's status.
  await expect(page.getByRole('tab', { name: /Capteurs\s*10\s000/ })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /^Capteurs \(10\s000\)$/ })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'capteurs' })).toHaveText(/^10\s000 capteurs$/);

  // Only the cards near the screen are rendered: the page stays light.
  const cards = page.getByTestId('device-card');
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeLessThan(100);
  expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(5000);

  // Scrolling to the end brings the last sensors, still without the others.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(cards.filter({ hasText: 'Sonde 9999' })).toBeVisible();
  expect(await cards.count()).toBeLessThan(100);
  await page.evaluate(() => window.scrollTo(0, 0));

  // Search by serial, accents and case aside.
  const search = page.getByLabel('Rechercher');
  await search.fill(witness.serial.toLowerCase());
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(witness.name);
  await expect(page.getByRole('status').filter({ hasText: 'capteur' })).toHaveText(/^1 capteur sur 10\s000$/);
  await search.fill('CHAMBRE FROIDE TEMOIN');
  await expect(cards).toHaveCount(1);
  await search.fill('');

  // The witness reports a low battery: « Pile faible » finds it, « Problèmes d’abord » puts it first.
  expect(await sendTelemetry(request, witness.accessToken, { values: { temperature: 3.4, battery: 7 } })).toBe(202);
  await page.getByLabel('État').selectOption({ label: 'Pile faible' });
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(witness.name);
  await page.getByLabel('État').selectOption({ label: 'Tous les états' });
  await page.getByLabel('Trier par').selectOption({ label: 'Problèmes d’abord' });
  await expect(cards.first()).toContainText(witness.name);

  // A live reading changes the card in place.
  expect(await sendTelemetry(request, witness.accessToken, { values: { temperature: 5.2, battery: 7 } })).toBe(202);
  await expect(cards.first().getByTestId('device-main-value')).toHaveText('5,2\u202F°C', { timeout: 2000 });
});
