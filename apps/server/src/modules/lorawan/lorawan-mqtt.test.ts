import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/child-process.ts';
import { devEui, LYON_GATEWAYS, ttsUplink } from '../../test/lorawan-uplinks.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';

const APPLICATION = 'magasin-lyon@ttn';
const API_KEY = `NNSXS.${randomBytes(24).toString('hex').toUpperCase()}`;

interface Integration {
  id: string;
  type: string;
  name: string;
  url: string;
  secret?: string;
  lastEventAt: string | null;
  mqtt: { server: string; username: string; state: string; error: string | null } | null;
}

/**
 * The Things Stack's MQTT server, played by a real Mosquitto with its credentials: the application
 * (`{application}@{tenant}`, an API key as password), and the network's own account that publishes
 * the uplinks on `v3/{application}@{tenant}/devices/{device}/up`.
 */
async function startApplicationServer(): Promise<{
  url: string;
  publish: (topic: string, body: object) => Promise<void>;
  stop: () => Promise<void>;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-tts-mqtt-'));
  const port = await freePort();
  const passwords = path.join(dir, 'passwords');
  execFileSync('mosquitto_passwd', ['-b', '-c', passwords, APPLICATION, API_KEY]);
  execFileSync('mosquitto_passwd', ['-b', passwords, 'reseau', 'mot-de-passe-du-reseau']);
  fs.chmodSync(passwords, 0o600);
  const config = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    config,
    [
      `user ${os.userInfo().username}`,
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `password_file ${passwords}`,
      'log_dest stdout',
      '',
    ].join('\n'),
  );
  const binary = fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';
  const child: ChildProcess = spawn(binary, ['-c', config], { stdio: 'ignore' });
  const network = await (async () => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
          username: 'reseau',
          password: 'mot-de-passe-du-reseau',
          reconnectPeriod: 0,
        });
      } catch (error) {
        if (attempt > 100) throw error;
        await delay(50);
      }
    }
  })();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    publish: async (topic, body) => {
      await network.publishAsync(topic, JSON.stringify(body), { qos: 1 });
    },
    stop: async () => {
      await network.endAsync(true);
      child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The uplink message The Things Stack publishes (the same JSON its webhooks post), heard by one gateway. */
const uplink = (eui: string, fCnt: number) =>
  ttsUplink(eui, { fCnt, heardBy: LYON_GATEWAYS.slice(0, 1), versionIds: { brand_id: 'milesight-iot', model_id: 'em300-th' } });

/** Waits (polling, no fixed sleep) until `check` gives a value, or fails with what it last saw. */
async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Pas arrivé à temps : ${what}`);
    await delay(50);
  }
}

describe(`The Things Stack through its MQTT server (${databaseKind})`, { timeout: 60_000 }, () => {
  let server: Awaited<ReturnType<typeof startApplicationServer>>;
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    server = await startApplicationServer();
    // The application's server runs on this machine: the operator allows private addresses.
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    owner = await t.createAccount();
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });

  const list = async (app: TestApp, account: TestAccount) =>
    (await app.app.inject({ url: '/api/integrations', headers: account.auth })).json<{ integrations: Integration[] }>().integrations;
  const create = (app: TestApp, account: TestAccount, payload: object) =>
    app.app.inject({ method: 'POST', url: '/api/integrations', headers: account.auth, payload });
  const tick = (app: TestApp) => app.app.services.modules.lorawan.jobs.mqtt();
  const stateOf = async (app: TestApp, account: TestAccount, id: string) =>
    (await list(app, account)).find((entry) => entry.id === id)?.mqtt;

  it('connects with the application’s credentials, and an uplink published there shows on the sensor', async () => {
    const response = await create(t, owner, {
      type: 'tts',
      name: 'TTN Lyon',
      mqtt: { server: server.url, username: APPLICATION, password: API_KEY },
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<{ integration: Integration & { secret: string } }>().integration;
    expect(created.mqtt).toEqual({ server: server.url, username: APPLICATION, state: 'connecting', error: null });
    // The key is never given back, nor kept readable in the database.
    expect(response.body).not.toContain(API_KEY);
    const eui = devEui();
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/lorawan/devices',
      headers: owner.auth,
      payload: { devEui: eui, codec: 'milesight-em300-th' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const sensorId = registered.json<{ sensor: { id: string } }>().sensor.id;

    await tick(t);
    await until('connecté', async () => ((await stateOf(t, owner, created.id))?.state === 'connected' ? true : undefined));
    await server.publish(`v3/${APPLICATION}/devices/eui-${eui}/up`, uplink(eui, 7));
    const latest = await until('la température du capteur', async () => {
      const sensor = (await t.app.inject({ url: `/api/sensor/${sensorId}`, headers: owner.auth })).json<{
        sensor: { latest: Record<string, { value: number }> };
      }>().sensor;
      return sensor.latest['temperature'] ? sensor.latest : undefined;
    });
    expect(latest['temperature']?.value).toBe(30.8);
    expect(latest['humidity']?.value).toBe(50.5);

    // An unknown DevEUI heard there waits in « Nouveaux appareils détectés », its codec suggested.
    const stranger = devEui();
    await server.publish(`v3/${APPLICATION}/devices/eui-${stranger}/up`, uplink(stranger, 1));
    const pending = await until('l’appareil détecté', async () => {
      const body = (await t.app.inject({ url: '/api/lorawan/pending', headers: owner.auth })).json<{
        devices: { devEui: string; suggestedCodec: string | null }[];
      }>();
      return body.devices.find((entry) => entry.devEui === stranger);
    });
    expect(pending.suggestedCodec).toBe('milesight-em300-th');

    // Removed, the integration's connection is let go.
    expect(t.app.services.modules.lorawan.bridge.holding()).toContain(created.id);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/integrations/${created.id}`, headers: owner.auth });
    expect(removed.statusCode).toBe(204);
    await until('la connexion lâchée', async () =>
      t.app.services.modules.lorawan.bridge.holding().includes(created.id) ? undefined : true,
    );
  });

  it('says in French when the server refuses the key', async () => {
    const response = await create(t, owner, {
      type: 'tts',
      name: 'TTN, mauvaise clé',
      mqtt: { server: server.url, username: APPLICATION, password: 'NNSXS.FAUSSE' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json<{ integration: Integration }>().integration;
    await tick(t);
    const state = await until('l’erreur', async () => {
      const mqttState = await stateOf(t, owner, id);
      return mqttState?.state === 'error' ? mqttState : undefined;
    });
    expect(state.error).toMatch(/^Identifiants refusés par le serveur MQTT/);
    await t.app.inject({ method: 'DELETE', url: `/api/integrations/${id}`, headers: owner.auth });
  });

  it('refuses a bad address, a private one unless allowed, and MQTT for ChirpStack, storing nothing', async () => {
    const strict = await createTestApp();
    try {
      const admin = await strict.createAccount();
      const cases: [object, RegExp][] = [
        [{ type: 'tts', name: 'A', mqtt: { server: server.url, username: APPLICATION, password: API_KEY } }, /réseau privé/],
        [
          { type: 'tts', name: 'B', mqtt: { server: 'http://eu1.example.org', username: APPLICATION, password: API_KEY } },
          /mqtts:\/\/hôte:8883/,
        ],
        [
          { type: 'tts', name: 'C', mqtt: { server: 'mqtts://eu1.example.org:8883', username: 'sans-tenant', password: API_KEY } },
          /application@tenant/,
        ],
        [
          { type: 'chirpstack', name: 'D', mqtt: { server: 'mqtts://eu1.example.org:8883', username: APPLICATION, password: API_KEY } },
          /n’existe que pour The Things Stack/,
        ],
      ];
      for (const [payload, message] of cases) {
        const response = await create(strict, admin, payload);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.body).toMatch(message);
      }
      expect(await list(strict, admin)).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it.runIf(databaseKind === 'PostgreSQL')('holds one connection per integration across two instances', async () => {
    const other = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    try {
      const response = await create(t, owner, {
        type: 'tts',
        name: 'TTN partagé',
        mqtt: { server: server.url, username: APPLICATION, password: API_KEY },
      });
      const { id } = response.json<{ integration: Integration }>().integration;
      await Promise.all([tick(t), tick(other), tick(t), tick(other)]);
      const holders = [t, other].filter((app) => app.app.services.modules.lorawan.bridge.holding().includes(id));
      expect(holders).toHaveLength(1);
      await t.app.inject({ method: 'DELETE', url: `/api/integrations/${id}`, headers: owner.auth });
    } finally {
      await other.close();
    }
  });
});
