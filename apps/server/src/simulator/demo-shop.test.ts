import type { Alert } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchDemoColdChain } from '../seed.ts';
import { provision } from '../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../test/test-app.ts';
import { DEFAULT_EPISODES, DEMO_CODE, DEMO_FRIDGE_SERIAL, DEMO_SENSOR_COUNT, fridgeWithDoorLeftOpen, startDemoShop } from './demo-shop.ts';
import { defrostWindows, shopSensors } from './shop-model.ts';

describe('the demo fridge with its door left open', () => {
  it('warms towards the shop’s air while open, then cools back, and is left alone in between', () => {
    const start = 0;
    const at = (seconds: number) => fridgeWithDoorLeftOpen(3.6, start + seconds * 1000, start, DEFAULT_EPISODES);
    expect(at(10)).toBe(3.6);
    expect(at(30 + 60)).toBeGreaterThan(5);
    expect(at(30 + 180)).toBeGreaterThan(8);
    expect(at(30 + 8 * 60 - 1)).toBeGreaterThan(10);
    expect(at(30 + 8 * 60 + 300)).toBeLessThan(5);
    expect(at(30 + 30 * 60)).toBeCloseTo(3.6, 1);
    expect(at(30 + 40 * 60 + 200)).toBeGreaterThan(8);
  });
});

describe(`the living demo shop (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  const organization = `Démo ${crypto.randomUUID()}`;
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    owner = await t.createAccount({ organization });
    await provision(t, owner, 'emitter', 'DEMO-GW01');
    for (let i = 1; i <= DEMO_SENSOR_COUNT; i += 1) await provision(t, owner, 'sensor', `DEMO-S00${i}`);
    await watchDemoColdChain(t.app.services, owner.organizationId);
  });
  afterAll(() => t.close());

  it('opens an alert on the display fridge a few minutes after the start, and resolves it by itself', async () => {
    // Between two defrosts: a defrost's warmth on top of the door's would delay the resolution.
    let startedAt = Date.now() - 14 * 60_000;
    const fridge = shopSensors(DEMO_CODE, DEMO_SENSOR_COUNT).find((sensor) => sensor.serial === DEMO_FRIDGE_SERIAL);
    for (const defrost of fridge ? defrostWindows(fridge, startedAt - 3_600_000, startedAt + 15 * 60_000) : [])
      if (defrost.to > startedAt && defrost.from < startedAt + 15 * 60_000) startedAt = defrost.from - 15 * 60_000;
    clock = startedAt;
    const demo = await startDemoShop(t.app.services, {
      organizationName: organization,
      intervalMs: 0,
      now: () => clock,
      logger: { info: () => undefined, warn: () => undefined },
    });
    expect(demo).not.toBeNull();
    const alertsAt: { minute: number; alerts: Alert[] }[] = [];
    for (let seconds = 0; seconds <= 14 * 60; seconds += 10) {
      clock = startedAt + seconds * 1000;
      await demo?.tick();
      await t.app.services.alerts.engine.idle();
      if (seconds % 60 === 0) {
        const response = await t.app.inject({ url: '/api/alerts', headers: owner.auth });
        alertsAt.push({ minute: seconds / 60, alerts: response.json<{ alerts: Alert[] }>().alerts });
      }
    }
    const opened = alertsAt.find((entry) => entry.alerts.some((alert) => alert.status === 'open'));
    expect(opened?.minute).toBeLessThanOrEqual(5);
    const last = alertsAt.at(-1)?.alerts ?? [];
    expect(last).toHaveLength(1);
    expect(last[0]).toMatchObject({ status: 'resolved', resolution: 'auto' });
    expect(last[0]?.peak).toBeGreaterThan(10);
  });
});
