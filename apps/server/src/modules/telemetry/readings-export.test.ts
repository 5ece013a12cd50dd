import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

/** More than a page of the export (5 000 rows), all at one instant. */
const SAME_INSTANT = 6_000;
const PER_MESSAGE = 1_000;

describe(`readings export (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  it('loses no reading when thousands share one timestamp, and repeats none', async () => {
    const device = await provision(t, owner, 'sensor');
    const ts = Date.now() - 60_000;
    // A device without reading ids that sends a burst stamped with one time: every value is kept.
    for (let sent = 0; sent < SAME_INSTANT; sent += PER_MESSAGE) {
      const batch = Array.from({ length: PER_MESSAGE }, (_, index) => ({ ts, values: { temperature: (sent + index) / 1000 } }));
      const response = await sendTelemetry(t, device.accessToken, batch);
      expect(response.statusCode, response.body).toBe(202);
    }
    const response = await t.app.inject({
      url: `/api/sensor/${device.deviceId}/readings.csv?from=${new Date(ts - 1000).toISOString()}&tz=Europe/Paris`,
      headers: owner.auth,
    });
    expect(response.statusCode).toBe(200);
    const rows = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1);
    expect(rows).toHaveLength(SAME_INSTANT);
    const values = new Set(rows.map((row) => row.split(';')[3]));
    expect(values.size).toBe(SAME_INSTANT);
    expect(values.has('0')).toBe(true);
    expect(values.has('5,999')).toBe(true);
  });
});
