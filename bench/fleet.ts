/**
 * npm run bench:fleet — the dashboard of a chain with 10 000 sensors, in Debian's Chromium, on the
 * production build served by the real server (embedded database): time to the first card of
 * « Capteurs », tab switches, DOM elements, JavaScript heap, and how soon a live reading reaches
 * its card while the organization sends 1 000 readings/s over MQTT. Prints each figure beside its
 * budget and exits non-zero when one is missed.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { benchLogin, ensureBuilt, fmt, json, startServer } from './support';

const FLEET = 10_000;
/** Sensors that report during the live phase: one watched, 99 carrying 1 000 readings/s between them. */
const LIVE = 100;
const LIVE_RATE = 1000;
const LIVE_SECONDS = 10;
const CREATE_CONCURRENCY = 16;
const BUDGETS = { firstCardMs: 1000, tabSwitchMs: 200, domElements: 5000, heapMiB: 80, liveP95Ms: 250 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

ensureBuilt('all');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-fleet-'));
const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', DEMO_SIMULATOR: 'false', INSIGHTS_INTERVAL_SECONDS: '0' });
// Whatever happens below (a browser that does not start, say), the server does not outlive the bench.
process.on('exit', () => server.child.kill('SIGKILL'));
const token = await benchLogin(server);
const user = { authorization: `Bearer ${token}` };

// The sensors that will report, first (so that the first one heads the list), then the rest as an
// integrator's script adds them: plain HTTP, 16 at a time.
const started = Date.now();
const { installationKey } = await json<{ installationKey: string }>(`${server.base}/api/organization/installation-key`, { headers: user });
const live: { deviceId: string; accessToken: string }[] = [];
for (let i = 0; i < LIVE; i += 1) {
  live.push(
    await json<{ deviceId: string; accessToken: string }>(`${server.base}/api/devices/provision`, {
      method: 'POST',
      body: JSON.stringify({
        installationKey,
        serial: `FLOTTE-${randomUUID().slice(0, 8)}`,
        kind: 'sensor',
        name: `Sonde en direct ${i + 1}`,
      }),
    }),
  );
}
let next = LIVE;
await Promise.all(
  Array.from({ length: CREATE_CONCURRENCY }, async () => {
    for (let n = next++; n < FLEET; n = next++) {
      await json(`${server.base}/api/sensor`, { method: 'POST', headers: user, body: JSON.stringify({ name: `Sonde ${n + 1}` }) });
    }
  }),
);
console.log(`${fmt(FLEET)} capteurs créés en ${fmt((Date.now() - started) / 1000)} s`);

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const results: { label: string; value: string; budget: string; ok: boolean }[] = [];
const record = (label: string, value: number, unit: string, budget: number, digits = 0) =>
  results.push({ label, value: `${fmt(value, digits)} ${unit}`, budget: `≤ ${fmt(budget)} ${unit}`, ok: value <= budget });

/**
 * In the page: clicks the tab named `tabName`, then resolves once the panel's heading matches
 * `heading`, its cards are there (or gone, for an empty tab), and the next frame is painted.
 */
async function timedTabSwitch(page: Page, tabName: RegExp, heading: RegExp, withCards: boolean): Promise<number> {
  return page.evaluate(
    ({ tabSource, headingSource, cards }) =>
      new Promise<number>((resolve, reject) => {
        const tabPattern = new RegExp(tabSource);
        const headingPattern = new RegExp(headingSource);
        const tab = [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((element) =>
          tabPattern.test(element.textContent ?? ''),
        );
        if (!tab) return reject(new Error(`Onglet introuvable : ${tabSource}`));
        const start = performance.now();
        tab.click();
        const check = () => {
          const shown = [...document.querySelectorAll('[role="tabpanel"] h2')].some((h2) => headingPattern.test(h2.textContent ?? ''));
          const hasCards = document.querySelector('[data-testid="device-card"]') !== null;
          if (shown && hasCards === cards) requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
          else requestAnimationFrame(check);
        };
        check();
      }),
    { tabSource: tabName.source, headingSource: heading.source, cards: withCards },
  );
}

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  await context.addInitScript((value) => window.localStorage.setItem('vigie_token', value), token);
  // tsx compiles this file with esbuild's keepNames, which wraps the functions defined inside
  // page.evaluate in a `__name` helper that exists only in Node: the page gets a no-op one.
  await context.addInitScript('globalThis.__name = (target) => target;');
  const page = await context.newPage();

  // Opening the dashboard, then « Capteurs »: until its first card is on screen. Three times, the median.
  const firstCard: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    const opened = Date.now();
    await page.goto(`${server.base}/dashboard`);
    await page.getByRole('tab', { name: /Capteurs/ }).click();
    await page.getByTestId('device-card').first().waitFor({ state: 'visible' });
    firstCard.push(Date.now() - opened);
  }
  record('« Capteurs » : première carte après l’ouverture du tableau de bord (médiane de 3)', median(firstCard), 'ms', BUDGETS.firstCardMs);
  // Where the time went in the last opening: each API request, from the page's start.
  const requests = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/api/') && !entry.name.includes('/api/stream'))
      .map((entry) => {
        const timing = entry as PerformanceResourceTiming;
        return {
          url: new URL(timing.name).pathname + new URL(timing.name).search,
          start: timing.startTime,
          end: timing.responseEnd,
          size: timing.encodedBodySize,
        };
      }),
  );
  for (const request of requests) {
    console.log(`  ${request.url} : de ${fmt(request.start)} à ${fmt(request.end)} ms, ${fmt(request.size / 1000, 1)} ko transférés`);
  }
  await page.getByRole('heading', { level: 2, name: /^Capteurs \(10\s000\)$/ }).waitFor();

  // Tab switches, each way, five times: the slowest median of the two directions.
  const toEmitters: number[] = [];
  const toSensors: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    toEmitters.push(await timedTabSwitch(page, /Émetteurs/, /^Émetteurs/, false));
    toSensors.push(await timedTabSwitch(page, /Capteurs/, /^Capteurs/, true));
  }
  record(
    'Changement d’onglet (médiane de 5, le plus lent des deux sens)',
    Math.max(median(toEmitters), median(toSensors)),
    'ms',
    BUDGETS.tabSwitchMs,
  );

  const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
  record('Éléments du DOM, onglet « Capteurs » ouvert', elements, 'éléments', BUDGETS.domElements);
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')).usedSize / 1024 / 1024;
  record('Tas JavaScript après ramasse-miettes', heap, 'Mio', BUDGETS.heapMiB, 1);

  // Live: 1 000 readings/s from 100 sensors over MQTT; the first sensor's card is watched in the page.
  await page.evaluate(() => {
    const seen: { value: number; at: number }[] = [];
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    let last = '';
    const observer = new MutationObserver(() => {
      const text = document.querySelector('[data-testid="device-card"] [data-testid="device-main-value"]')?.textContent ?? '';
      if (text === last) return;
      last = text;
      const value = Number.parseFloat(text.replace(',', '.').replace(/[^\d.-]/g, ''));
      if (Number.isFinite(value)) seen.push({ value, at: Date.now() });
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const firstName = await page.getByTestId('device-card').first().textContent();
  if (!firstName?.includes('Sonde en direct 1')) throw new Error(`La première carte n’est pas la sonde suivie : ${firstName ?? ''}`);
  const clients: MqttClient[] = await Promise.all(
    live.map((device) =>
      mqtt.connectAsync(server.mqttUrl, {
        clientId: device.deviceId,
        username: device.deviceId,
        password: device.accessToken,
        reconnectPeriod: 0,
      }),
    ),
  );
  // The same stream, read by this process: how much of the delay is the server's, how much the page's.
  const streamSeen = new Map<number, number>();
  const streamAbort = new AbortController();
  const watched = live[0]?.deviceId;
  const stream = fetch(`${server.base}/api/stream`, { headers: { ...user, accept: 'text/event-stream' }, signal: streamAbort.signal })
    .then(async (response) => {
      if (!response.body) return;
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (!block.includes('event: reading') || !data || !watched || !data.includes(watched)) continue;
          const reading = JSON.parse(data.slice(6)) as { values: { temperature?: { value: number } } };
          const value = reading.values.temperature?.value;
          if (value !== undefined && !streamSeen.has(Math.round(value * 10))) streamSeen.set(Math.round(value * 10), Date.now());
        }
      }
    })
    .catch(() => undefined);
  const sentAt = new Map<number, number>();
  const publish = (lane: number, temperature: number) => {
    const device = live[lane];
    const client = clients[lane];
    if (device && client) {
      client.publish(`vigie/devices/${device.deviceId}/telemetry`, JSON.stringify({ ts: Date.now(), values: { temperature } }), { qos: 1 });
    }
  };
  const liveStart = Date.now();
  let sent = 0;
  let marker = 0;
  // The watched sensor sends only its own values, twice a second, each until the next one, so that
  // none is overwritten before the page can show it; the 99 others carry the 1 000 readings/s.
  const markers = setInterval(() => {
    marker += 1;
    const temperature = 20 + marker / 10;
    sentAt.set(Math.round(temperature * 10), Date.now());
    publish(0, temperature);
  }, 500);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = Date.now() - liveStart;
      if (elapsed > LIVE_SECONDS * 1000) {
        clearInterval(timer);
        clearInterval(markers);
        resolve();
        return;
      }
      const due = Math.floor((elapsed / 1000) * LIVE_RATE) - sent;
      for (let i = 0; i < due; i += 1) {
        publish(1 + (sent % (LIVE - 1)), 3 + Math.random());
        sent += 1;
      }
    }, 10);
  });
  const rate = sent / ((Date.now() - liveStart) / 1000);
  await page.waitForTimeout(1000);
  await Promise.all(clients.map((client) => client.endAsync()));
  const seen = await page.evaluate(() => (window as unknown as { __seen: { value: number; at: number }[] }).__seen);
  streamAbort.abort();
  await stream;
  const serverDelays = [...streamSeen].flatMap(([key, at]) => {
    const sentTime = sentAt.get(key);
    return sentTime === undefined ? [] : [at - sentTime];
  });
  console.log(
    `Flux lu par le banc : ${serverDelays.length} valeurs marquées sur ${sentAt.size} ; p95 ${fmt(percentile(serverDelays, 95))} ms, médiane ${fmt(median(serverDelays))} ms`,
  );
  const delays: number[] = [];
  for (const { value, at } of seen) {
    const sentTime = sentAt.get(Math.round(value * 10));
    if (sentTime !== undefined) delays.push(at - sentTime);
  }
  console.log(
    `${fmt(rate)} lectures/s envoyées pendant ${LIVE_SECONDS} s ; ${delays.length} valeurs marquées vues sur ${sentAt.size} ; médiane ${fmt(median(delays))} ms, max ${fmt(Math.max(...delays))} ms`,
  );
  if (delays.length < sentAt.size * 0.9) {
    results.push({
      label: 'Valeurs marquées vues sur la carte',
      value: `${delays.length} sur ${sentAt.size}`,
      budget: '≥ 90 %',
      ok: false,
    });
  }
  record(`Lecture en direct → carte, p95 à ${fmt(rate)} lectures/s`, percentile(delays, 95), 'ms', BUDGETS.liveP95Ms);
} finally {
  await browser.close();
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}

for (const result of results) console.log(`${result.ok ? 'ok  ' : 'RATÉ'} ${result.label} : ${result.value} (budget ${result.budget})`);
if (results.some((result) => !result.ok)) {
  console.error('Un budget est manqué.');
  process.exit(1);
}
