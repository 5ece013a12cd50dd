/**
 * Family 3 — hostile names through every renderer: stacked combining marks, bidirectional
 * overrides, formula prefixes, 100 emoji or flags, markup. Each is refused in French or stored and
 * then rendered — the site's monthly report (PDF and CSV), the audit CSV, the readings CSV, the
 * alert e-mail — with no formula left live in a CSV cell, while /api/health keeps its budget
 * (p99 ≤ 200 ms) during the rendering.
 */
import { randomUUID } from 'node:crypto';
import { call, describe, frenchError, ms, ok, percentile, pool, sampleHealth, Tally, waitFor } from './support.ts';
import type { World } from './world.ts';

const HEALTH_P99_MS = 200;
const PDF_ROUNDS = 3;

const marks = (base: string, count: number) => base + '\u0301\u0323\u0308'.repeat(Math.ceil(count / 3)).slice(0, count);

export const HOSTILE_NAMES: { label: string; name: string; formula?: boolean }[] = [
  { label: '100 lettres sous 300 marques', name: Array.from({ length: 100 }, () => marks('a', 300)).join('') },
  { label: '100 lettres sous 15 marques', name: Array.from({ length: 100 }, () => marks('e', 15)).join('') },
  { label: '30 lettres sous 15 marques', name: Array.from({ length: 30 }, () => marks('o', 15)).join('') },
  { label: 'une lettre sous 2 000 marques', name: marks('x', 2000) },
  { label: 'RTL override', name: 'Magasin \u202Etxt.exe\u202C fin \u2067isolé\u2069' },
  { label: 'formule =', name: '=HYPERLINK("http://exemple.invalid";"clic")', formula: true },
  { label: 'formule +', name: "+1+cmd|' /C calc'!A0", formula: true },
  { label: 'formule -', name: '-2+3', formula: true },
  { label: 'formule @', name: '@SOMME(A1:A9)', formula: true },
  { label: 'tabulation', name: '\t=1+1' },
  { label: '100 émojis', name: '😀'.repeat(100) },
  { label: '100 drapeaux', name: '🇫🇷'.repeat(100) },
  { label: '100 familles ZWJ', name: '👨‍👩‍👧‍👦'.repeat(100) },
  { label: 'balises', name: '<img src=x onerror=alert(1)><script>alert(1)</script>' },
  { label: 'retour chariot', name: 'Magasin\r\nBcc: victime@exemple.invalid' },
];

/** The cells of a `;` CSV, quotes removed. */
function cells(csv: string): string[] {
  return csv
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .flatMap((line) => line.split(';'))
    .map((cell) => cell.replace(/^"|"$/g, '').replace(/""/g, '"'));
}

export async function hostileNames(w: World): Promise<Tally> {
  const tally = new Tally();
  const base = w.server.base;
  const token = w.adminA.token;
  const month = new Date().toISOString().slice(0, 7);
  const accepted: { label: string; name: string; formula?: boolean; siteId: string; sensorId: string }[] = [];

  for (const hostile of HOSTILE_NAMES) {
    const site = await call(base, 'POST', '/api/sites', { token, body: { name: hostile.name } });
    if (site.status !== 201) {
      tally.check(
        site.status === 400 && frenchError(site) === undefined,
        () => `site « ${hostile.label} » : ${describe('POST', '/api/sites', site)}`,
      );
      continue;
    }
    tally.check(true, () => '');
    const siteId = (site.body as { site: { id: string } }).site.id;
    const sensor = await call(base, 'POST', '/api/sensor', { token, body: { name: hostile.name } });
    if (!tally.check(sensor.status === 201, () => `capteur « ${hostile.label} » : ${describe('POST', '/api/sensor', sensor)}`)) continue;
    const sensorId = (sensor.body as { sensor: { id: string } }).sensor.id;
    await ok(base, 'PUT', `/api/sensor/${sensorId}`, { token, body: { siteId } });
    const { accessToken } = await ok<{ accessToken: string }>(base, 'POST', `/api/sensor/${sensorId}/token`, { token });
    const now = Date.now();
    await ok(base, 'POST', '/api/devices/telemetry', {
      token: accessToken,
      body: Array.from({ length: 50 }, (_, i) => ({ id: randomUUID(), ts: now - (50 - i) * 60_000, values: { temperature: 3 + (i % 5) } })),
    });
    // A rule the last reading breaks: an alert, and its e-mail, carry the name too.
    await ok(base, 'POST', '/api/alert-rules', {
      token,
      body: { name: hostile.name, siteId, condition: { type: 'above', key: 'temperature', threshold: 0 }, severity: 'critical' },
    });
    await ok(base, 'POST', '/api/devices/telemetry', { token: accessToken, body: { id: randomUUID(), values: { temperature: 9 } } });
    accepted.push({ ...hostile, siteId, sensorId });
  }
  // Free texts carry the same limit: an action of stacked marks is refused, in French.
  const action = await call(base, 'POST', `/api/alerts/${w.a.alertId}/actions`, { token, body: { text: marks('a', 300) } });
  tally.check(
    action.status === 400 && frenchError(action) === undefined,
    () => `action de 300 marques : ${describe('POST', 'actions', action)}`,
  );

  // Reports of every hostile site while /api/health is measured.
  // Every 25 ms: the rendering lasts seconds, and a p99 needs a hundred samples or more behind it.
  const sampler = sampleHealth(base, 25);
  const rendered = await pool(accepted, 3, async (site) => {
    const report = await call(base, 'POST', '/api/reports', { token, body: { siteId: site.siteId, month }, timeoutMs: 120_000 });
    if (!tally.check(report.status === 201, () => `rapport « ${site.label} » : ${describe('POST', '/api/reports', report)}`))
      return undefined;
    const id = (report.body as { report: { id: string } }).report.id;
    let pdf = await call(base, 'GET', `/api/reports/${id}/pdf`, { token, timeoutMs: 120_000 });
    // Rendered again: enough health samples behind the p99 (a hundred at least).
    for (let round = 1; round < PDF_ROUNDS && pdf.status === 200; round += 1) {
      pdf = await call(base, 'GET', `/api/reports/${id}/pdf`, { token, timeoutMs: 120_000 });
    }
    tally.check(
      pdf.status === 200 && pdf.type.includes('application/pdf') && pdf.text.startsWith('%PDF'),
      () => `PDF « ${site.label} » : ${pdf.status} ${pdf.type} ${pdf.text.slice(0, 120)}`,
    );
    const csv = await call(base, 'GET', `/api/reports/${id}/csv`, { token, timeoutMs: 120_000 });
    tally.check(csv.status === 200, () => `CSV du rapport « ${site.label} » : ${describe('GET', 'csv', csv)}`);
    const readings = await call(base, 'GET', `/api/sensor/${site.sensorId}/readings.csv`, { token });
    tally.check(readings.status === 200, () => `lectures CSV « ${site.label} » : ${describe('GET', 'readings.csv', readings)}`);
    return { site, csv: csv.text };
  });
  const audit = await call(base, 'GET', '/api/audit.csv', { token, timeoutMs: 120_000 });
  const latencies = await sampler.stop();
  tally.check(audit.status === 200, () => `journal CSV : ${describe('GET', '/api/audit.csv', audit)}`);

  // No formula left live: a cell that starts like the formula name is a neutralised one (« ' » first).
  const csvs = [
    ...rendered.flatMap((r) => (r ? [{ what: `rapport « ${r.site.label} »`, text: r.csv }] : [])),
    { what: 'journal', text: audit.text },
  ];
  for (const { what, text } of csvs) {
    const live = cells(text).filter((cell) => accepted.some((site) => site.formula && cell.startsWith(site.name)));
    tally.check(live.length === 0, () => `CSV ${what} : formule active ${JSON.stringify(live[0])}`);
  }

  // The alert e-mail of each hostile site, sent once; its subject a single header line.
  const since = Date.now();
  for (const site of accepted) {
    let alertId = '';
    await waitFor(`l'alerte de « ${site.label} »`, async () => {
      const { alerts } = await ok<{ alerts: { id: string }[] }>(base, 'GET', `/api/alerts?sensorId=${site.sensorId}`, { token });
      alertId = alerts[0]?.id ?? '';
      return alertId !== '';
    });
    const mailsOf = () => w.smtp.received.filter((mail) => alertId !== '' && mail.text?.includes(`/dashboard/alertes/${alertId}`));
    await waitFor(`l'e-mail de « ${site.label} »`, async () => mailsOf().length > 0, Math.max(1000, 40_000 - (Date.now() - since)));
    const mails = mailsOf();
    tally.check(mails.length > 0, () => `aucun e-mail d'alerte pour « ${site.label} » (alerte ${alertId || 'absente'})`);
    tally.check(
      mails.every((mail) => !/[\r\n]/.test(mail.subject ?? '') && !mail.bcc),
      () => `e-mail de « ${site.label} » : en-têtes injectés (${JSON.stringify(mails[0]?.subject)})`,
    );
  }

  const p99 = percentile(latencies, 99);
  const max = Math.max(...latencies);
  tally.figure(
    `/api/health pendant les rapports (${latencies.length} mesures) p99`,
    `${ms(p99)} (médiane ${ms(percentile(latencies, 50))}, max ${ms(max)}) ≤ ${HEALTH_P99_MS} ms`,
    p99 <= HEALTH_P99_MS,
  );
  return tally;
}
