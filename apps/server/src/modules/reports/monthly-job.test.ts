import type { Report } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { MONTHLY_REPORT_SECONDS } from '../../jobs/start-jobs.ts';
import { seedDemo } from '../../seed.ts';
import { createTestApp, databaseKind, databaseUrl, isolatedDatabase, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;

/**
 * The reports page promises the month's report « automatiquement le 1er »: on 1 December in Paris,
 * the November report of every shop that has something of November to report is made, exactly
 * once whatever the number of instances — the demo shop too, created on 1 December with its week of
 * history behind it — and within half an hour of midnight. A shop created on the 1st with nothing
 * of November has no report.
 */
describe(`the monthly report on the 1st (${databaseKind})`, { timeout: 180_000 }, () => {
  it('runs often enough that the report is there within half an hour of midnight', () => {
    // The grace after midnight (15 min) plus the job's period: at most 25 min.
    expect(MONTHLY_REPORT_SECONDS).toBeLessThanOrEqual(10 * 60);
  });

  it('makes the November report of the demo shop created on 1 December, once across two instances', async () => {
    // Midnight in Paris on 1 December 2026 is 23:00 UTC on the 30th; the demo is seeded at 00:05.
    const midnight = Date.parse('2026-11-30T23:00:00Z');
    let clock = midnight + 5 * MINUTE;
    const now = () => new Date(clock);
    const isolated = databaseUrl ? await isolatedDatabase() : undefined;
    const env: Record<string, string> = isolated ? { DATABASE_URL: isolated.url } : {};
    const a: TestApp = await createTestApp({ env, now });
    // On PostgreSQL a second instance on the same database; on the embedded one, two runs of one instance.
    const b: TestApp | null = isolated ? await createTestApp({ env, now }) : null;
    try {
      expect(await seedDemo(a.app.services, clock)).toBe(true);
      const demo = await a.createAccount({ organization: 'Épicerie ouverte ce matin' });
      // Before the grace is over: nothing yet.
      expect(await a.app.services.reports.makeMonthly()).toEqual([]);

      clock = midnight + 20 * MINUTE;
      const made = await Promise.all([a.app.services.reports.makeMonthly(), (b ?? a).app.services.reports.makeMonthly()]);
      expect(made.flat()).toHaveLength(1);
      const report = made.flat()[0];
      expect(report).toMatchObject<Partial<Report>>({ month: '2026-11', automatic: true, createdBy: null });
      expect(report?.summary.units.length).toBeGreaterThan(0);
      // The demo organization holds that one report and no other.
      const demoOrganization = (await a.app.services.users.accountByEmail('demo@vigie.fr'))?.organizationId ?? '';
      expect((await a.app.services.reports.list(demoOrganization)).map((each) => each.id)).toEqual([report?.id]);
      // The shop opened this morning, without a reading of November: no report.
      expect(await a.app.services.reports.list(demo.organizationId)).toEqual([]);
      // Later runs make nothing more.
      clock = midnight + 3 * 3600_000;
      expect(await a.app.services.reports.makeMonthly()).toEqual([]);
    } finally {
      await b?.close();
      await a.close();
      await isolated?.drop();
    }
  });
});
