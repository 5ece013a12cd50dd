import { randomBytes, randomUUID } from 'node:crypto';
import type { DeviceKind } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFactoryBatch } from './claiming-service.ts';
import { sendTelemetry } from '../../test/device-helpers.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';

const UNKNOWN = 'Appareil introuvable : vérifiez le numéro de série et le code de l’étiquette.';
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

describe(`claiming a factory device (docs/api.md, Rattachement des appareils d'usine) on ${databaseKind}`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
    stranger = await t.createAccount();
  });
  afterAll(() => t.close());

  /** A new labelled device on the shelf: its serial and the code printed on its label. */
  async function factoryDevice(kind: DeviceKind = 'sensor', model = 'Vigie Froid T1') {
    const serial = `VIG-${randomUUID().slice(0, 8)}`.toUpperCase();
    const claimCode = Array.from(randomBytes(12), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
    const result = await importFactoryBatch(t.database.db, [{ serial, kind, model, claimCode }]);
    expect(result).toEqual({ added: [serial], unchanged: [] });
    return { serial, claimCode, kind };
  }

  const claim = (account: TestAccount, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/devices/claim', headers: account.auth, payload });
  const provision = (payload: object) => t.app.inject({ method: 'POST', url: '/api/devices/provision', payload });
  const check = (account: TestAccount, payload: object, remoteAddress?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/devices/claim/check',
      headers: account.auth,
      payload,
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  it('waits (202) until a person claims it, then gives the device a token that sends readings', async () => {
    const device = await factoryDevice();
    const early = await provision({ serial: device.serial, claimCode: device.claimCode });
    expect(early.statusCode).toBe(202);
    expect(early.json()).toEqual({ status: 'waiting' });

    // The label's code as a person types it: dashes, spaces and lower case are fine.
    const typed = device.claimCode
      .toLowerCase()
      .replace(/(.{4})/g, '$1-')
      .replace(/-$/, '');
    const claimed = await claim(owner, { serial: device.serial, claimCode: typed, name: 'Vitrine crèmerie' });
    expect(claimed.statusCode).toBe(201);
    const sensor = claimed.json<{ sensor: { id: string; name: string; serial: string; model: string; status: string } }>().sensor;
    expect(sensor).toMatchObject({ name: 'Vitrine crèmerie', serial: device.serial, model: 'Vigie Froid T1', status: 'never' });

    const answer = await provision({ serial: device.serial, claimCode: device.claimCode, inactivityTimeoutSeconds: 60 });
    expect(answer.statusCode).toBe(201);
    const token = answer.json<{ deviceId: string; kind: string; accessToken: string }>();
    expect(token).toMatchObject({ deviceId: sensor.id, kind: 'sensor' });
    expect((await sendTelemetry(t, token.accessToken, { temperature: 4.2 })).statusCode).toBe(202);

    const read = await t.app.inject({ url: `/api/sensor/${sensor.id}`, headers: owner.auth });
    expect(read.json<{ sensor: { latest: { temperature: { value: number } }; inactivityTimeoutSeconds: number } }>().sensor).toMatchObject({
      latest: { temperature: { value: 4.2 } },
      inactivityTimeoutSeconds: 60,
    });
  });

  it('answers a wrong code and an unknown serial with the same 404, on claim and on provision, and changes nothing', async () => {
    const device = await factoryDevice();
    const wrong = await claim(owner, { serial: device.serial, claimCode: 'ZZZZZZZZZZZZ' });
    const unknown = await claim(owner, { serial: 'VIG-NOPE-000', claimCode: device.claimCode });
    expect([wrong.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect(wrong.json()).toEqual({ message: UNKNOWN });
    expect(unknown.json()).toEqual({ message: UNKNOWN });

    const wrongDevice = await provision({ serial: device.serial, claimCode: 'ZZZZZZZZZZZZ' });
    const unknownDevice = await provision({ serial: 'VIG-NOPE-000', claimCode: device.claimCode });
    expect([wrongDevice.statusCode, unknownDevice.statusCode]).toEqual([404, 404]);
    expect(wrongDevice.json()).toEqual({ message: UNKNOWN });
    expect(unknownDevice.json()).toEqual({ message: UNKNOWN });

    expect((await provision({ serial: device.serial, claimCode: device.claimCode })).statusCode).toBe(202);
  });

  it('keeps a claimed device from any other organization: 404 to claim, 404 to read', async () => {
    const device = await factoryDevice();
    const claimed = await claim(owner, { serial: device.serial, claimCode: device.claimCode });
    expect(claimed.statusCode).toBe(201);
    const id = claimed.json<{ sensor: { id: string } }>().sensor.id;

    const theirs = await claim(stranger, { serial: device.serial, claimCode: device.claimCode });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: UNKNOWN });
    expect((await t.app.inject({ url: `/api/sensor/${id}`, headers: stranger.auth })).statusCode).toBe(404);
    const list = await t.app.inject({ url: '/api/sensor', headers: stranger.auth });
    expect(list.json<{ sensors: { id: string }[] }>().sensors.map((sensor) => sensor.id)).not.toContain(id);

    const again = await claim(owner, { serial: device.serial, claimCode: device.claimCode });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toMatch(/^Cet appareil est déjà installé dans votre organisation/);
  });

  it('creates the rule of the use chosen: the freezer preset, a door left open', async () => {
    const freezer = await factoryDevice();
    const door = await factoryDevice('sensor', 'Vigie Contact C1');
    const rulesOf = async (sensorId: string) => {
      const response = await t.app.inject({ url: `/api/alert-rules?sensorId=${sensorId}`, headers: owner.auth });
      return response.json<{ rules: { condition: object; delaySeconds: number; hysteresis: number; preset: string | null }[] }>().rules;
    };

    const a = await claim(owner, { serial: freezer.serial, claimCode: freezer.claimCode, preset: 'frozen' });
    expect(a.statusCode).toBe(201);
    expect(await rulesOf(a.json<{ sensor: { id: string } }>().sensor.id)).toMatchObject([
      // A door opened for a delivery, a defrost: neither alerts, nor makes the alert flap.
      { condition: { type: 'above', key: 'temperature', threshold: -18 }, preset: 'frozen', delaySeconds: 1800, hysteresis: 1 },
    ]);

    const b = await claim(owner, { serial: door.serial, claimCode: door.claimCode, preset: 'door' });
    expect(b.statusCode).toBe(201);
    expect(await rulesOf(b.json<{ sensor: { id: string } }>().sensor.id)).toMatchObject([
      { condition: { type: 'above', key: 'open', threshold: 0.5 }, delaySeconds: 300 },
    ]);
  });

  it('brings a device back from the trash when it is claimed again, with the name and the use chosen now', async () => {
    const device = await factoryDevice();
    const first = await claim(owner, { serial: device.serial, claimCode: device.claimCode, name: 'Ancienne vitrine' });
    const id = first.json<{ sensor: { id: string } }>().sensor.id;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/sensor/${id}`, headers: owner.auth })).statusCode).toBe(204);
    expect((await provision({ serial: device.serial, claimCode: device.claimCode })).statusCode).toBe(202);

    const again = await claim(owner, {
      serial: device.serial,
      claimCode: device.claimCode,
      name: 'Vitrine traiteur',
      preset: 'chilled_perishable',
    });
    expect(again.statusCode).toBe(201);
    expect(again.json<{ sensor: { id: string; name: string } }>().sensor).toMatchObject({ id, name: 'Vitrine traiteur' });
    const rules = await t.app.inject({ url: `/api/alert-rules?sensorId=${id}`, headers: owner.auth });
    expect(rules.json<{ rules: { condition: object }[] }>().rules.map((rule) => rule.condition)).toEqual([
      { type: 'above', key: 'temperature', threshold: 8 },
    ]);
    expect((await provision({ serial: device.serial, claimCode: device.claimCode })).statusCode).toBe(201);
  });

  it('refuses a rule for a transmitter with a French 400 and leaves it on the shelf', async () => {
    const emitter = await factoryDevice('emitter', 'Vigie Passerelle G1');
    const refused = await claim(owner, { serial: emitter.serial, claimCode: emitter.claimCode, preset: 'chilled_perishable' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/^Cet appareil est un émetteur/);
    expect((await provision({ serial: emitter.serial, claimCode: emitter.claimCode })).statusCode).toBe(202);

    const claimed = await claim(owner, { serial: emitter.serial, claimCode: emitter.claimCode, preset: 'none' });
    expect(claimed.statusCode).toBe(201);
    expect(claimed.json<{ emitter: { serial: string } }>().emitter.serial).toBe(emitter.serial);
  });

  it('refuses bad bodies with a French message, and a site of another organization as missing', async () => {
    const device = await factoryDevice();
    const cases: [object, RegExp][] = [
      [{ serial: device.serial }, /code de l’étiquette est obligatoire/],
      [{ serial: device.serial, claimCode: 'abc' }, /au moins 6 caractères/],
      [{ serial: device.serial, claimCode: device.claimCode, preset: 'fridge' }, /Usage inconnu/],
      [{ serial: device.serial, claimCode: device.claimCode, siteId: 'x' }, /UUID/],
      [{ serial: device.serial, claimCode: device.claimCode, extra: 1 }, /extra/],
    ];
    for (const [payload, message] of cases) {
      const response = await claim(owner, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    const badProvision = await provision({ serial: device.serial, claimCode: 'a!' });
    expect(badProvision.statusCode).toBe(400);
    expect(badProvision.json<{ message: string }>().message).toMatch(/code de l’étiquette/);

    const sites = await t.app.inject({ url: '/api/sites', headers: stranger.auth });
    const theirSite = sites.json<{ sites: { id: string }[] }>().sites[0]?.id;
    const elsewhere = await claim(owner, { serial: device.serial, claimCode: device.claimCode, siteId: theirSite });
    expect(elsewhere.statusCode).toBe(404);
    expect((await provision({ serial: device.serial, claimCode: device.claimCode })).statusCode).toBe(202);
    const unauthenticated = await t.app.inject({ method: 'POST', url: '/api/devices/claim', payload: { serial: device.serial } });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('gives a device claimed by two organizations at once to exactly one', async () => {
    const device = await factoryDevice();
    const answers = await Promise.all([
      claim(owner, { serial: device.serial, claimCode: device.claimCode }),
      claim(stranger, { serial: device.serial, claimCode: device.claimCode }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 404]);
  });

  it('checks a label before the choices: the model it names, or the claim’s own refusals, and nothing is claimed', async () => {
    const device = await factoryDevice('sensor', 'Vigie TH-1');
    // Typed as a person types it, like the claim.
    const typed = device.claimCode.toLowerCase().replace(/(.{4})(?=.)/g, '$1-');
    const right = await check(owner, { serial: ` ${device.serial} `, claimCode: typed });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ device: { serial: device.serial, model: 'Vigie TH-1', kind: 'sensor' } });
    const gateway = await factoryDevice('emitter', 'Vigie Passerelle G1');
    expect((await check(owner, { serial: gateway.serial, claimCode: gateway.claimCode })).json()).toEqual({
      device: { serial: gateway.serial, model: 'Vigie Passerelle G1', kind: 'emitter' },
    });

    // A wrong code and an unknown serial: the same 404 as the claim, word for word.
    for (const payload of [
      { serial: device.serial, claimCode: 'ZZZZZZZZZZZZ' },
      { serial: 'VIG-NOPE-000', claimCode: device.claimCode },
    ]) {
      const [checked, claimed] = [await check(owner, payload), await claim(owner, payload)];
      expect([checked.statusCode, claimed.statusCode], JSON.stringify(payload)).toEqual([404, 404]);
      expect(checked.json()).toEqual({ message: UNKNOWN });
      expect(checked.json()).toEqual(claimed.json());
    }
    // A body the claim refuses is refused the same way.
    for (const payload of [{ serial: device.serial }, { serial: device.serial, claimCode: 'abc' }, { ...device, extra: 1 }]) {
      const [checked, claimed] = [await check(owner, payload), await claim(owner, payload)];
      expect(checked.statusCode, JSON.stringify(payload)).toBe(400);
      expect(checked.json()).toEqual(claimed.json());
    }

    // Checked twice, the device is still on the shelf: it waits, and is claimed afterwards.
    expect((await provision({ serial: device.serial, claimCode: device.claimCode })).statusCode).toBe(202);
    const claimed = await claim(owner, { serial: device.serial, claimCode: device.claimCode, name: 'Vitrine fromages' });
    expect(claimed.statusCode).toBe(201);
    const id = claimed.json<{ sensor: { id: string } }>().sensor.id;

    // Installed here: the 409 of a second claim; installed elsewhere: the 404 of anyone else.
    const installed = await check(owner, { serial: device.serial, claimCode: device.claimCode });
    expect(installed.statusCode).toBe(409);
    expect(installed.json()).toEqual({ message: 'Cet appareil est déjà installé dans votre organisation (« Vitrine fromages »).' });
    expect(installed.json()).toEqual((await claim(owner, { serial: device.serial, claimCode: device.claimCode })).json());
    const elsewhere = await check(stranger, { serial: device.serial, claimCode: device.claimCode });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ message: UNKNOWN });

    // In the trash it may be claimed again: the check says so, and leaves it in the trash.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/sensor/${id}`, headers: owner.auth })).statusCode).toBe(204);
    expect((await check(owner, { serial: device.serial, claimCode: device.claimCode })).statusCode).toBe(200);
    const trash = await t.app.inject({ url: '/api/trash', headers: owner.auth });
    expect(JSON.stringify(trash.json())).toContain(id);
    expect((await t.app.inject({ url: `/api/sensor/${id}`, headers: owner.auth })).statusCode).toBe(404);

    const unauthenticated = await t.app.inject({ method: 'POST', url: '/api/devices/claim/check', payload: device });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('counts wrong codes checked with wrong codes claimed: after 10, the claim itself is refused (429)', async () => {
    const guesser = await t.createAccount();
    const ip = '203.0.113.41';
    const device = await factoryDevice('sensor', 'Vigie TH-1');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      statuses.push((await check(guesser, { serial: device.serial, claimCode: `ZZZZZZZZZZ${ALPHABET[attempt]}` }, ip)).statusCode);
    }
    expect(statuses).toEqual(Array(10).fill(404));

    // Even the right code: no more guesses from this account, whether checked or claimed.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/devices/claim',
      headers: guesser.auth,
      payload: { serial: device.serial, claimCode: device.claimCode },
      remoteAddress: ip,
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<{ message: string }>().message).toMatch(/^Trop de codes d’étiquette invalides\. Réessayez dans \d+ min\.$/);
    const refusedCheck = await check(guesser, { serial: device.serial, claimCode: device.claimCode }, ip);
    expect(refusedCheck.statusCode).toBe(429);
    expect(refusedCheck.json()).toEqual(refused.json());

    // The address counts them too: 10 more wrong checks from another account there, and it is closed to anyone.
    const second = await t.createAccount();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await check(second, { serial: `VIG-NOPE-${attempt}`, claimCode: device.claimCode }, ip)).statusCode).toBe(404);
    }
    const third = await t.createAccount();
    expect((await check(third, { serial: device.serial, claimCode: device.claimCode }, ip)).statusCode).toBe(429);

    // Nothing was written by all of it: the device still waits, and its owner-to-be claims it from elsewhere.
    expect((await provision({ serial: device.serial, claimCode: device.claimCode })).statusCode).toBe(202);
    expect((await check(third, { serial: device.serial, claimCode: device.claimCode }, '203.0.113.42')).statusCode).toBe(200);
    const claimed = await t.app.inject({
      method: 'POST',
      url: '/api/devices/claim',
      headers: third.auth,
      payload: { serial: device.serial, claimCode: device.claimCode },
      remoteAddress: '203.0.113.42',
    });
    expect(claimed.statusCode).toBe(201);
  });

  it('does not import a known serial twice: its first code stays', async () => {
    const device = await factoryDevice();
    const again = await importFactoryBatch(t.database.db, [{ serial: device.serial, kind: 'sensor', claimCode: 'AUTRECODE99' }]);
    expect(again).toEqual({ added: [], unchanged: [device.serial] });
    expect((await provision({ serial: device.serial, claimCode: 'AUTRECODE99' })).statusCode).toBe(404);
    expect((await provision({ serial: device.serial, claimCode: device.claimCode })).statusCode).toBe(202);
  });
});
