import type { ReadingsResponse } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT, seedDemo } from './seed.ts';
import { createTestApp, databaseUrl } from './test/test-app.ts';

const DAY = 86_400_000;

// The seed runs on an empty database: the embedded one each test app gets (PostgreSQL's is shared by the suites).
describe.skipIf(databaseUrl)('the demo history', { timeout: 180_000 }, () => {
  it('covers the last seven days at one reading a minute, even on the 1st of the month', async () => {
    const now = Date.parse('2026-12-01T21:00:00Z');
    const t = await createTestApp({ now: () => new Date(now) });
    try {
      expect(await seedDemo(t.app.services, now)).toBe(true);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password },
      });
      const auth = { authorization: `Bearer ${login.json<{ accessToken: string }>().accessToken}` };
      const sensors = (await t.app.inject({ url: '/api/sensor', headers: auth })).json<{ sensors: { id: string }[] }>().sensors;
      expect(sensors.length).toBeGreaterThan(0);
      const from = new Date(now - 7 * DAY).toISOString();
      const response = await t.app.inject({
        url: `/api/sensor/${sensors[0]?.id}/readings?key=temperature&from=${from}&to=${new Date(now).toISOString()}&buckets=168`,
        headers: auth,
      });
      expect(response.statusCode).toBe(200);
      const { readings } = response.json<ReadingsResponse>();
      // Every hour of the week has its sixty readings.
      expect(readings.length).toBeGreaterThanOrEqual(168);
      expect(Date.parse(readings[0]?.ts ?? '')).toBeLessThanOrEqual(now - 7 * DAY + 3600_000);
      // The two ends may be part-hours: every whole hour between them is full.
      expect(Math.min(...readings.slice(1, -1).map((bucket) => bucket.count))).toBeGreaterThanOrEqual(59);
      expect(readings.reduce((sum, bucket) => sum + bucket.count, 0)).toBeGreaterThanOrEqual(7 * 1440);
      // A silent unit of the demo shop raises an alert: its shop has an offline rule.
      const rules = (await t.app.inject({ url: '/api/alert-rules', headers: auth })).json<{
        rules: { siteId: string | null; condition: { type: string } }[];
      }>().rules;
      expect(rules.filter((rule) => rule.condition.type === 'offline' && rule.siteId !== null)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
