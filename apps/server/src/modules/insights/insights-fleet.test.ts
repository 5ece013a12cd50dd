import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, isolatedDatabase, type TestApp } from '../../test/test-app.ts';

const MIN = 60_000;

/**
 * A fleet larger than what one background pass reads at once: every sensor that reports is
 * analysed in turn, the ones heard from last included, instead of the same first ones again.
 */
describe(`background analysis of a large fleet (${databaseKind})`, { timeout: 120_000 }, () => {
  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let now = Date.parse('2026-11-20T12:00:00Z');
  const sensors: string[] = [];
  // Two sensors a pass: a pass reads eight candidates at a time, fewer than the eleven that report.
  const passLimit = 2;
  const fleet = 11;

  beforeAll(async () => {
    // Its own database on PostgreSQL: the pass analyses every organization's sensors.
    isolated = await isolatedDatabase();
    const env = { INSIGHTS_PASS_LIMIT: String(passLimit), ...(isolated ? { DATABASE_URL: isolated.url } : {}) };
    t = await createTestApp({ env, now: () => new Date(now) });
    const owner = await t.createAccount();
    // One minute apart, so the last ones are the last heard from.
    for (let index = 0; index < fleet; index += 1) {
      const sensor = await provision(t, owner, 'sensor');
      const readings = Array.from({ length: 30 }, (_, minute) => ({
        ts: new Date(now - (30 - minute) * MIN).toISOString(),
        temperature: 4 + 0.1 * Math.sin(minute),
      }));
      const response = await sendTelemetry(t, sensor.accessToken, readings);
      expect(response.statusCode, response.body).toBeLessThan(300);
      sensors.push(sensor.deviceId);
      now += MIN;
    }
  });
  afterAll(async () => {
    await t.close();
    await isolated?.drop();
  });

  it('analyses every reporting sensor within as many passes as it takes, then rests', async () => {
    const passes: number[] = [];
    for (let pass = 0; pass < Math.ceil(fleet / passLimit); pass += 1) passes.push(await t.app.services.insights.refresh());
    expect(passes).toEqual([2, 2, 2, 2, 2, 1]);
    expect(passes.reduce((sum, count) => sum + count, 0)).toBe(fleet);
    // All analysed within the refresh delay: nothing is due.
    expect(await t.app.services.insights.refresh()).toBe(0);
  });

  it('analyses again, least recently analysed first, once the refresh delay has passed', async () => {
    now += 5 * MIN;
    expect(await t.app.services.insights.refresh()).toBe(2);
  });
});
