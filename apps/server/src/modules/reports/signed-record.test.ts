import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Alert, Calibration, Check, Report, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, isolatedDatabase, tempDir, type TestAccount, type TestApp } from '../../test/test-app.ts';
import { purgeTrash } from '../devices/trash-purge.ts';
import { localMonth, monthOf, previousMonth } from '../../lib/local-time.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const TZ = 'Europe/Paris';

/**
 * The record of a signed month cannot be rewritten (docs/guide-utilisateur.md, Rapports HACCP;
 * decision 0046): once the month before this one is signed, every route that writes something of
 * that month is tried — late readings and a batch resent with its ids, a verification dated inside
 * (+5 °C), manual checks dated inside, actions on its alerts, a second signature, renaming and
 * moving the sensor, changing its rule, trashing and purging it — and the signed PDF, both its
 * fingerprints and the data behind it stay as they were. A report of that month made afterwards
 * carries the same figures and lists beside them, as amendments, what came after the signature.
 */
describe(`a signed month cannot be rewritten (${databaseKind})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  // On PostgreSQL, a database of its own: the purge a month later takes every organization's old
  // trash, and on the shared database it would take the devices other files have just trashed.
  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;
  let admin: TestAccount;
  let site: Site;
  let sensor: { deviceId: string; accessToken: string };
  let ruleId: string;
  let signed: Report;
  const before: { pdf?: Buffer; signedPdf?: Buffer; csv?: string; readings?: string[] } = {};

  // The month before the current one on the shop's clock, and the test's clock around its end.
  const month = previousMonth(localMonth(Date.now(), TZ));
  const period = monthOf(month, TZ);
  const end = period.to;
  let clock = end - 3 * DAY;
  const now = () => new Date(clock);

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: admin.auth, ...(payload ? { payload } : {}) });
  const file = async (url: string) => {
    const response = await call('GET', url);
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  };
  /** The readings of the signed month as the sensor's export lists them (time, value). */
  const readingsOfMonth = async () => {
    const response = await call(
      'GET',
      `/api/sensor/${sensor.deviceId}/readings.csv?key=temperature&from=${new Date(period.from).toISOString()}&to=${new Date(end - 1).toISOString()}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    // Time, instant, measure, value, unit (a verified sensor's export adds the raw value after them).
    return response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(';').slice(0, 5).join(';'));
  };
  /** A report's CSV without the lines that name the report itself (its id, when and by whom it was made). */
  const figures = (csv: string) =>
    csv
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter((line) => !/^(Rapport|Établi le|Établi par);/.test(line));
  const makeReport = async () => {
    const response = await call('POST', '/api/reports', { siteId: site.id, month });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ report: Report }>().report;
  };
  const pdfText = (bytes: Buffer) => {
    const dir = tempDir('vigie-signed-');
    const pdfPath = path.join(dir, 'report.pdf');
    fs.writeFileSync(pdfPath, bytes);
    return execFileSync('pdftotext', ['-raw', pdfPath, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  };

  beforeAll(async () => {
    isolated = await isolatedDatabase();
    t = await createTestApp({ now, ...(isolated ? { env: { DATABASE_URL: isolated.url } } : {}) });
    admin = await t.createAccount({ organization: `Registre ${randomUUID()}`, name: 'Marie Dupont' });
    site = (await call('POST', '/api/sites', { name: 'Crèmerie Lyon' })).json<{ site: Site }>().site;
    sensor = await provision(t, admin, 'sensor');
    expect((await call('PUT', `/api/sensor/${sensor.deviceId}`, { name: 'Vitrine yaourts', siteId: site.id })).statusCode).toBe(200);
    const rule = await call('POST', '/api/alert-rules', {
      name: 'Froid ≤ +4 °C',
      sensorId: sensor.deviceId,
      preset: 'chilled_very_perishable',
    });
    expect(rule.statusCode, rule.body).toBe(201);
    ruleId = rule.json<{ rule: { id: string } }>().rule.id;
    // The last three days of the month: 4,34 °C every six hours, with the device's own ids.
    const rows = Array.from({ length: 12 }, (_, index) => ({
      id: `r${index}`,
      ts: end - 3 * DAY + index * 6 * HOUR,
      temperature: 4.34,
    }));
    expect((await sendTelemetry(t, sensor.accessToken, rows)).statusCode).toBe(202);
    // A check taken and entered before the signature.
    clock = end - DAY;
    const check = await call('POST', '/api/checks', {
      siteId: site.id,
      kind: 'product',
      product: 'Yaourts nature',
      temperature: 3.8,
      takenAt: new Date(end - DAY - HOUR).toISOString(),
    });
    expect(check.statusCode, check.body).toBe(201);

    // The 1st of the next month: the report of the month is made and signed.
    clock = end + 2 * HOUR;
    const report = await makeReport();
    const sign = await call('POST', `/api/reports/${report.id}/sign`, { comment: 'Vu, conforme.' });
    expect(sign.statusCode, sign.body).toBe(200);
    signed = sign.json<{ report: Report }>().report;
    before.pdf = await file(`/api/reports/${signed.id}/pdf`);
    before.signedPdf = await file(`/api/reports/${signed.id}/signed.pdf`);
    before.csv = (await call('GET', `/api/reports/${signed.id}/csv`)).body;
    before.readings = await readingsOfMonth();
    expect(before.readings).toHaveLength(12);
  });
  afterAll(async () => {
    await t.close();
    await isolated?.drop();
  });

  it('keeps the temperatures of a signed month when a verification dated inside it is recorded, and corrects from the end of what was signed on', async () => {
    clock = end + DAY;
    // A reading of the new month, stored before the verification: not covered by any signature.
    expect((await sendTelemetry(t, sensor.accessToken, [{ ts: end + 3 * HOUR, temperature: 6 }])).statusCode).toBe(202);
    const response = await call('POST', `/api/sensor/${sensor.deviceId}/calibrations`, {
      verifiedAt: new Date(end - 5 * DAY).toISOString(),
      method: 'Bain thermostaté, sonde étalon n° 4521',
      offset: 5,
      note: 'Sonde vérifiée par le frigoriste',
    });
    expect(response.statusCode, response.body).toBe(201);
    const calibration = response.json<{ calibration: Calibration }>().calibration;
    // It applies from the end of the signed month, not from its date.
    expect(calibration.appliesFrom).toBe(new Date(end).toISOString());
    expect(calibration.amendedPeriod).toEqual({ from: new Date(end - 5 * DAY).toISOString(), to: new Date(end).toISOString() });

    // The 30th's temperatures stay 4,34 °C; the new month's reading reads 6 − 5 = 1 °C.
    expect(await readingsOfMonth()).toEqual(before.readings);
    const later = await call(
      'GET',
      `/api/sensor/${sensor.deviceId}/readings.csv?key=temperature&from=${new Date(end).toISOString()}&to=${new Date(end + 12 * HOUR).toISOString()}`,
    );
    expect(
      later.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(';').slice(3).join(';')),
    ).toEqual(['1;°C;6']);
    // And a reading sent from now on for the new month is corrected too.
    expect((await sendTelemetry(t, sensor.accessToken, [{ ts: end + 4 * HOUR, temperature: 7 }])).statusCode).toBe(202);
    const both = await call(
      'GET',
      `/api/sensor/${sensor.deviceId}/readings.csv?key=temperature&from=${new Date(end).toISOString()}&to=${new Date(end + 12 * HOUR).toISOString()}`,
    );
    expect(
      both.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(';').slice(3).join(';')),
    ).toEqual(['1;°C;6', '2;°C;7']);
  });

  it('tries every route that writes the signed month, and finds the signed PDF, its fingerprints and its data unchanged', async () => {
    clock = end + DAY + HOUR;
    // Readings: late ones inside the month, and the first batch resent with other values under its ids.
    expect((await sendTelemetry(t, sensor.accessToken, [{ ts: end - 2 * DAY, temperature: 12.5 }])).statusCode).toBe(202);
    await sendTelemetry(t, sensor.accessToken, [{ id: 'r3', ts: end - 3 * DAY + 18 * HOUR, temperature: 25 }]);
    // A second verification dated inside, negative this time.
    expect(
      (
        await call('POST', `/api/sensor/${sensor.deviceId}/calibrations`, {
          verifiedAt: new Date(end - 2 * DAY).toISOString(),
          method: 'Sonde de contrôle',
          offset: -1.5,
        })
      ).statusCode,
    ).toBe(201);
    // A check dated inside, entered after the signature.
    const late = await call('POST', '/api/checks', {
      siteId: site.id,
      kind: 'delivery',
      product: 'Crème fraîche',
      supplier: 'Laiterie Martin',
      temperature: 7.9,
      accepted: false,
      takenAt: new Date(end - 6 * HOUR).toISOString(),
    });
    expect(late.statusCode, late.body).toBe(201);
    expect(late.json<{ check: Check }>().check.takenAt).toBe(new Date(end - 6 * HOUR).toISOString());
    // The alerts of the month: acknowledged, given an action, resolved.
    const alerts = (await call('GET', `/api/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts;
    for (const alert of alerts) {
      await call('POST', `/api/alerts/${alert.id}/acknowledge`, {});
      await call('POST', `/api/alerts/${alert.id}/actions`, { kind: 'other', text: 'Porte refermée après coup' });
      await call('POST', `/api/alerts/${alert.id}/resolve`, {});
    }
    // A second signature is refused, whoever asks.
    const again = await call('POST', `/api/reports/${signed.id}/sign`, { comment: 'Autre visa' });
    expect(again.statusCode).toBe(409);
    // The sensor renamed, its rule's limits changed.
    expect((await call('PUT', `/api/sensor/${sensor.deviceId}`, { name: 'Vitrine renommée' })).statusCode).toBe(200);
    expect((await call('PUT', `/api/alert-rules/${ruleId}`, { preset: 'chilled_perishable' })).statusCode).toBeLessThan(500);

    // A report of the same month made now: the same figures, and the amendments beside them.
    const remade = await makeReport();
    expect(remade.summary).toEqual(signed.summary);
    const remadeCsv = (await call('GET', `/api/reports/${remade.id}/csv`)).body;
    const text = pdfText(await file(`/api/reports/${remade.id}/pdf`));
    expect(text).toMatch(/Rectificatifs après la signature/);
    expect(text).toMatch(/Signé le .* par Marie Dupont/);
    // The verification: who, when, why and how much; not applied to the signed period.
    expect(text).toMatch(/\+5,0\s*°C/);
    expect(text).toMatch(/Sonde vérifiée par le frigoriste/);
    expect(text).toMatch(/non appliqué/);
    // The check entered late, with both dates.
    expect(text).toMatch(/Crème fraîche/);
    expect(text).toMatch(/saisi le/i);
    // What was done about the month's alert after the signature.
    expect(alerts.length).toBeGreaterThan(0);
    expect(text).toMatch(/Porte refermée après coup/);
    // The late readings, counted apart.
    expect(text).toMatch(/1 lecture reçue après la signature/);
    expect(figures(remadeCsv).slice(0, figures(before.csv ?? '').length)).toEqual(figures(before.csv ?? ''));
    expect(remadeCsv).toMatch(/Rectificatifs après la signature/);

    // The shop renamed, the sensor moved to another shop.
    expect((await call('PUT', `/api/sites/${site.id}`, { name: 'Crèmerie Lyon Part-Dieu' })).statusCode).toBe(200);
    const other = (await call('POST', '/api/sites', { name: 'Réserve' })).json<{ site: Site }>().site;
    expect((await call('PUT', `/api/sensor/${sensor.deviceId}`, { siteId: other.id })).statusCode).toBe(200);
    // The sensor trashed, then purged a month later.
    expect((await call('DELETE', `/api/sensor/${sensor.deviceId}`)).statusCode).toBeLessThan(300);
    clock = end + 40 * DAY;
    expect(await purgeTrash(t.app.services, now)).toBe(1);
    expect((await call('GET', `/api/sensor/${sensor.deviceId}`)).statusCode).toBe(404);

    // The signed report as it was: both files byte for byte, both fingerprints, its figures.
    const after = (await call('GET', `/api/reports/${signed.id}`)).json<{ report: Report }>().report;
    expect(after).toEqual(signed);
    const pdf = await file(`/api/reports/${signed.id}/pdf`);
    const signedPdf = await file(`/api/reports/${signed.id}/signed.pdf`);
    expect(pdf.equals(before.pdf ?? Buffer.alloc(0))).toBe(true);
    expect(signedPdf.equals(before.signedPdf ?? Buffer.alloc(0))).toBe(true);
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(signed.sha256);
    expect(createHash('sha256').update(signedPdf).digest('hex')).toBe(signed.signedSha256);
    expect((await call('GET', `/api/reports/${signed.id}/csv`)).body).toBe(before.csv);
    // And a report of that month made now still carries the signed figures.
    const last = await makeReport();
    expect(last.summary).toEqual(signed.summary);
    const lastCsv = figures((await call('GET', `/api/reports/${last.id}/csv`)).body);
    expect(lastCsv.slice(0, figures(before.csv ?? '').length)).toEqual(figures(before.csv ?? ''));

    // The shop itself removed: the signed report stays, byte for byte.
    expect((await call('DELETE', `/api/sites/${site.id}`)).statusCode).toBeLessThan(300);
    expect((await call('GET', `/api/reports/${signed.id}`)).json<{ report: Report }>().report).toEqual(signed);
    expect((await file(`/api/reports/${signed.id}/signed.pdf`)).equals(before.signedPdf ?? Buffer.alloc(0))).toBe(true);
  });
});
