import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Calibration, Report, Sensor } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailingTestApp } from '../../test/mailing-test-app.ts';
import { recipientOf } from '../../test/smtp-catcher.ts';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, tempDir, type TestAccount, type TestApp } from '../../test/test-app.ts';
import { setRole } from '../../test/test-dal.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** The smallest file a PDF reader recognizes as one: its signature is what the server checks. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/**
 * A sensor's verification register (docs/api.md, Vérifications des capteurs): a verification of
 * +0,4 °C corrects the sensor's temperatures from its date (those already stored too), the CSV
 * keeps the raw values, the report shows the certificate, and a due verification is reminded once.
 */
describe(`sensor verifications (${databaseKind})`, { timeout: 60_000 }, () => {
  let t: TestApp;
  let admin: TestAccount;
  let sensor: { deviceId: string; accessToken: string };
  const call = (who: TestAccount, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const calibrations = async () =>
    (await call(admin, 'GET', `/api/sensor/${sensor.deviceId}/calibrations`)).json<{ calibrations: Calibration[] }>().calibrations;
  const latest = async () =>
    (await call(admin, 'GET', `/api/sensor/${sensor.deviceId}`)).json<{ sensor: Sensor }>().sensor.latest['temperature']?.value;
  const csv = async () => {
    const from = new Date(Date.now() - 10 * HOUR).toISOString();
    const response = await call(admin, 'GET', `/api/sensor/${sensor.deviceId}/readings.csv?key=temperature&from=${from}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
  };

  // Readings 6 h and 1 h ago, the verification dated 3 h ago.
  const now = Date.now();
  const sixHoursAgo = now - 6 * HOUR;
  const oneHourAgo = now - HOUR;
  const verifiedAt = new Date(now - 3 * HOUR).toISOString();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createAccount({ organization: `Vérifications ${randomUUID()}` });
    sensor = await provision(t, admin, 'sensor');
    const sent = await sendTelemetry(t, sensor.accessToken, [
      { ts: sixHoursAgo, temperature: 3 },
      { ts: oneHourAgo, temperature: 4.5 },
    ]);
    expect(sent.statusCode).toBe(202);
  });
  afterAll(() => t.close());

  it('refuses a wrong verification with a French message, and records nothing', async () => {
    const base = { verifiedAt, method: 'Bain thermostaté, sonde étalon n° 4521', offset: 0.4 };
    const cases: [object, RegExp][] = [
      [{ ...base, verifiedAt: new Date(now + DAY).toISOString() }, /futur/],
      [{ ...base, verifiedAt: new Date(now - 40 * DAY).toISOString() }, /31 jours/],
      [{ ...base, nextDueAt: new Date(now - 4 * HOUR).toISOString() }, /doit suivre/],
      [{ ...base, offset: 9 }, /compris entre/],
      [{ ...base, method: '' }, /méthode/i],
      [
        { ...base, certificate: { fileName: 'faux.pdf', contentType: 'application/pdf', data: PNG.toString('base64') } },
        /ne correspond pas/,
      ],
      [
        { ...base, certificate: { fileName: 'photo.gif', contentType: 'image/gif', data: PNG.toString('base64') } },
        /PDF, une image PNG ou JPEG/,
      ],
      [
        {
          ...base,
          certificate: {
            fileName: 'gros.pdf',
            contentType: 'application/pdf',
            data: Buffer.concat([PDF, Buffer.alloc(2 * 1024 * 1024)]).toString('base64'),
          },
        },
        /2 Mo/,
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await call(admin, 'POST', `/api/sensor/${sensor.deviceId}/calibrations`, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    expect(await calibrations()).toEqual([]);
    expect(await latest()).toBe(4.5);
  });

  it('corrects the temperatures from the verification on, those already stored too, and keeps the raw ones in the CSV', async () => {
    const created = await call(admin, 'POST', `/api/sensor/${sensor.deviceId}/calibrations`, {
      verifiedAt,
      method: 'Bain thermostaté, sonde étalon n° 4521',
      offset: 0.4,
      nextDueAt: new Date(now + 365 * DAY).toISOString(),
      certificate: { fileName: 'certificat-4521.pdf', contentType: 'application/pdf', data: PDF.toString('base64') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const calibration = created.json<{ calibration: Calibration }>().calibration;
    expect(calibration.offset).toBe(0.4);
    expect(calibration.certificate).toEqual({
      fileName: 'certificat-4521.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
      sha256: createHash('sha256').update(PDF).digest('hex'),
    });

    // The reading of 1 h ago was taken after the verification: corrected. The one of 6 h ago is not.
    expect(await latest()).toBe(4.1);
    // A new reading is stored corrected.
    expect((await sendTelemetry(t, sensor.accessToken, [{ ts: now - 60_000, temperature: 5 }])).statusCode).toBe(202);
    expect(await latest()).toBe(4.6);
    const lines = await csv();
    expect(lines[0]).toBe('Date et heure (locale);Horodatage UTC;Mesure;Valeur;Unité;Valeur brute (avant correction)');
    expect(lines.slice(1).map((line) => line.split(';').slice(3).join(';'))).toEqual(['3;°C;3', '4,1;°C;4,5', '4,6;°C;5']);

    const certificate = await call(admin, 'GET', `/api/sensor/${sensor.deviceId}/calibrations/${calibration.id}/certificate`);
    expect(certificate.statusCode).toBe(200);
    expect(certificate.headers['content-type']).toBe('application/pdf');
    expect(certificate.headers['content-disposition']).toContain('certificat-4521.pdf');
    expect(certificate.rawPayload.equals(PDF)).toBe(true);
  });

  it('a later verification replaces the offset from its own date, once', async () => {
    const created = await call(admin, 'POST', `/api/sensor/${sensor.deviceId}/calibrations`, {
      verifiedAt: new Date(now - 30 * 60_000).toISOString(),
      method: 'Thermomètre de référence étalonné COFRAC',
      offset: -0.2,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await latest()).toBe(5.2);
    const lines = await csv();
    expect(lines.slice(1).map((line) => line.split(';').slice(3).join(';'))).toEqual(['3;°C;3', '4,1;°C;4,5', '5,2;°C;5']);
    expect((await calibrations()).map((each) => each.offset)).toEqual([-0.2, 0.4]);
  });

  it('shows the last verification and its certificate in the month’s HACCP report', async () => {
    const site = (await call(admin, 'GET', `/api/sensor/${sensor.deviceId}`)).json<{ sensor: Sensor }>().sensor.siteId;
    const month = new Date().toISOString().slice(0, 7);
    const made = await call(admin, 'POST', '/api/reports', { siteId: site, month });
    expect(made.statusCode, made.body).toBe(201);
    const report = made.json<{ report: Report }>().report;
    const pdf = await call(admin, 'GET', `/api/reports/${report.id}/pdf`);
    const dir = tempDir('vigie-calibration-');
    const file = path.join(dir, 'rapport.pdf');
    fs.writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('Thermomètre de référence étalonné COFRAC');
    expect(text).toMatch(/écart mesuré −0,2\s°C, valeurs corrigées depuis/);
    const csvReport = (await call(admin, 'GET', `/api/reports/${report.id}/csv`)).body;
    expect(csvReport).toContain('Vérifications des capteurs');
    expect(csvReport).toContain('Thermomètre de référence étalonné COFRAC');
  });

  it('lets a manager record one, refuses a viewer, and hides the sensor from another organization', async () => {
    const organization = (await call(admin, 'GET', '/api/user/me')).json<{ user: { organization: { name: string } } }>().user.organization
      .name;
    const viewer = await t.createAccount({ organization });
    await setRole(t, viewer.id, 'viewer');
    const payload = { verifiedAt: new Date().toISOString(), method: 'Sonde de contrôle', offset: 0 };
    const refused = await call(viewer, 'POST', `/api/sensor/${sensor.deviceId}/calibrations`, payload);
    expect(refused.statusCode).toBe(403);
    expect((await call(viewer, 'GET', `/api/sensor/${sensor.deviceId}/calibrations`)).statusCode).toBe(200);
    const stranger = await t.createAccount({ organization: `Autre ${randomUUID()}` });
    expect((await call(stranger, 'GET', `/api/sensor/${sensor.deviceId}/calibrations`)).statusCode).toBe(404);
    expect((await call(stranger, 'POST', `/api/sensor/${sensor.deviceId}/calibrations`, payload)).statusCode).toBe(404);
    const [first] = await calibrations();
    expect((await call(stranger, 'GET', `/api/sensor/${sensor.deviceId}/calibrations/${first?.id}/certificate`)).statusCode).toBe(404);
    expect(await calibrations()).toHaveLength(2);
  });
});

describe(`a due verification is reminded once (${databaseKind})`, { timeout: 60_000 }, () => {
  const mailing = mailingTestApp({ publicUrl: 'https://vigie.example.fr', mailFrom: 'Vigie <alertes@vigie.test>', start: new Date() });

  it('e-mails the sensor’s people once, across two runs at once and a later one', async () => {
    const { t } = mailing;
    const admin = await t.createAccount({ organization: `Rappels ${randomUUID()}` });
    const sensor = await provision(t, admin, 'sensor');
    await t.app.inject({
      method: 'PUT',
      url: `/api/sensor/${sensor.deviceId}`,
      headers: admin.auth,
      payload: { name: 'Vitrine crèmerie' },
    });
    const payload = {
      verifiedAt: new Date(mailing.clock.getTime() - 340 * DAY + DAY).toISOString(),
      method: 'Sonde étalon',
      offset: 0.1,
      nextDueAt: new Date(mailing.clock.getTime() + 20 * DAY).toISOString(),
    };
    // 31 days at most in the past: the verification is recorded on a clock moved back.
    mailing.clock = new Date(Date.parse(payload.verifiedAt) + HOUR);
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/sensor/${sensor.deviceId}/calibrations`,
      headers: admin.auth,
      payload,
    });
    expect(created.statusCode, created.body).toBe(201);
    mailing.clock = new Date();

    const jobs = t.app.services.modules.reports.jobs;
    const [first, second] = await Promise.all([jobs.remindCalibrations(), jobs.remindCalibrations()]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    expect(await jobs.remindCalibrations()).toBe(0);
    await t.app.services.notifications.tick();
    // Queued once (the outbox's key), then sent.
    const queued = (await t.app.services.notifications.outbox(admin.organizationId)).filter(
      (row) => row.target === admin.email.toLowerCase(),
    );
    expect(queued).toHaveLength(1);
    await mailing.sentRow(admin.organizationId, admin.email.toLowerCase());
    const [mail] = mailing.smtp.received.filter((each) => recipientOf(each) === admin.email.toLowerCase());
    expect(mail?.subject).toMatch(/^Vérification de capteur à prévoir — Vitrine crèmerie/);
    expect(mail?.text).toContain(`https://vigie.example.fr/dashboard/capteurs/${sensor.deviceId}`);
  });
});
