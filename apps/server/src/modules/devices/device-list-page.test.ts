import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, type ProvisionedDevice, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

type Page = { sensors: { id: string; name: string; status: string }[]; total?: number; nextCursor?: string | null };

describe(`device lists by page and filter (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;
  let reporting: ProvisionedDevice;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
    stranger = await t.createAccount();
    for (let n = 1; n <= 24; n += 1) {
      await t.app.inject({
        method: 'POST',
        url: '/api/sensor',
        headers: owner.auth,
        payload: { name: n % 5 === 0 ? `Frigo_laitier ${n}` : `Sonde 100% ${n}` },
      });
    }
    reporting = await provision(t, owner, 'sensor', 'VIG-CHAMBRE-42');
    await sendTelemetry(t, reporting.accessToken, { temperature: 3.2 });
    await t.app.inject({ method: 'POST', url: '/api/sensor', headers: stranger.auth, payload: { name: 'Frigo voisin' } });
  });
  afterAll(() => t.close());

  const list = async (query = '', who = owner) => {
    const response = await t.app.inject({ url: `/api/sensor${query}`, headers: who.auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  };

  it('answers the seed contract exactly without parameters', async () => {
    const whole = await list();
    expect(Object.keys(whole)).toEqual(['sensors']);
    expect(whole.sensors).toHaveLength(25);
  });

  it('pages through the whole list in its order, each device once, with the true total', async () => {
    const whole = (await list()).sensors.map((sensor) => sensor.id);
    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const page = await list(`?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.total).toBe(25);
      seen.push(...page.sensors.map((sensor) => sensor.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(whole);
  });

  it('finds by name or serial, case aside, with % and _ taken literally', async () => {
    const fridges = await list('?q=frigo_LAITIER');
    expect(fridges.total).toBe(4);
    expect(fridges.sensors.every((sensor) => sensor.name.startsWith('Frigo_laitier'))).toBe(true);
    expect((await list('?q=100%25')).total).toBe(20);
    expect((await list('?q=chambre-42')).sensors.map((sensor) => sensor.id)).toEqual([reporting.deviceId]);
    expect((await list('?q=voisin')).total).toBe(0);
  });

  it('filters by status now and by site', async () => {
    const online = await list('?status=online');
    expect(online.sensors.map((sensor) => sensor.id)).toEqual([reporting.deviceId]);
    expect((await list('?status=never')).total).toBe(24);
    expect((await list('?status=offline')).total).toBe(0);
    expect((await list('?siteId=00000000-0000-4000-8000-000000000000')).total).toBe(0);
  });

  it('refuses bad parameters in French and shows nothing of another organization', async () => {
    for (const [query, message] of [
      ['?limit=0', 'limit doit valoir au moins 1.'],
      ['?limit=abc', 'limit doit être un nombre entier.'],
      ['?limit=5000', 'limit vaut 1 000 au plus.'],
      ['?cursor=nope', 'Curseur invalide : reprenez la liste depuis le début.'],
      [`?q=${'a'.repeat(101)}`, 'Recherche trop longue : 100 caractères au plus.'],
      ['?status=asleep', 'Option invalide'],
    ] as const) {
      const response = await t.app.inject({ url: `/api/sensor${query}`, headers: owner.auth });
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ message: string }>().message, query).toContain(message);
    }
    // A cursor from this organization leads nowhere in another one.
    const first = await list('?limit=1');
    const foreign = await list(`?limit=10&cursor=${first.nextCursor}`, stranger);
    expect(foreign.sensors).toEqual([]);
    expect(foreign.total).toBe(1);
  });
});
