/**
 * What a visitor's browser downloads and sees: JavaScript transferred for the landing page and the
 * login page, then Lighthouse's mobile preset (simulated slow 4G and a 4× slower processor) on
 * both: performance score, Largest Contentful Paint, Cumulative Layout Shift. Debian's Chromium, on
 * the production build served by the real server; each figure beside its budget, and a non-zero
 * exit when one is missed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { type BenchServer, ensureBuilt, fmt, freePort, startServer } from './support';

/** kB of JavaScript transferred (compressed, as on the wire) before the page is idle. */
const BUDGET_JS_KB = 110;
const PAGES = ['/', '/login'];
const LIGHTHOUSE_BUDGETS = { performance: 95, lcpMs: 2500, cls: 0.05 };

async function startWebServer(): Promise<BenchServer & { dataDir: string }> {
  ensureBuilt('all');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-web-'));
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', DEMO_SIMULATOR: 'false' }, { account: false });
  return { ...server, dataDir };
}

const server = await startWebServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
let failed = false;
try {
  for (const page of PAGES) {
    const tab = await browser.newPage();
    const cdp = await tab.context().newCDPSession(tab);
    await cdp.send('Network.enable');
    const types = new Map<string, string>();
    let js = 0;
    let all = 0;
    cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.response.mimeType));
    cdp.on('Network.loadingFinished', (event) => {
      all += event.encodedDataLength;
      if (/javascript/.test(types.get(event.requestId) ?? '')) js += event.encodedDataLength;
    });
    await tab.goto(`${server.base}${page}`, { waitUntil: 'networkidle' });
    const kb = js / 1000;
    const ok = kb <= BUDGET_JS_KB;
    failed ||= !ok;
    console.log(
      `${ok ? 'ok  ' : 'RATÉ'} ${page} : ${kb.toLocaleString('fr-FR', { maximumFractionDigits: 1 })} kB de JavaScript transférés (budget ≤ ${BUDGET_JS_KB} kB), ${(all / 1000).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} kB en tout`,
    );
    await tab.close();
  }

  // Lighthouse drives a Chromium of its own through the DevTools port, one page at a time.
  const port = await freePort();
  const audited = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] });
  try {
    for (const page of PAGES) {
      const result = await lighthouse(`${server.base}${page}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
      });
      if (!result) throw new Error(`Lighthouse n’a rien rendu pour ${page}`);
      const { lhr } = result;
      const score = Math.round((lhr.categories['performance']?.score ?? 0) * 100);
      const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? Number.POSITIVE_INFINITY;
      const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.POSITIVE_INFINITY;
      const checks = [
        {
          label: 'performance',
          ok: score >= LIGHTHOUSE_BUDGETS.performance,
          text: `${score} (budget ≥ ${LIGHTHOUSE_BUDGETS.performance})`,
        },
        { label: 'LCP', ok: lcp <= LIGHTHOUSE_BUDGETS.lcpMs, text: `${fmt(lcp)} ms (budget ≤ ${fmt(LIGHTHOUSE_BUDGETS.lcpMs)} ms)` },
        { label: 'CLS', ok: cls <= LIGHTHOUSE_BUDGETS.cls, text: `${fmt(cls, 3)} (budget ≤ ${fmt(LIGHTHOUSE_BUDGETS.cls, 2)})` },
      ];
      for (const check of checks) {
        failed ||= !check.ok;
        console.log(`${check.ok ? 'ok  ' : 'RATÉ'} Lighthouse mobile ${page} : ${check.label} ${check.text}`);
      }
    }
  } finally {
    await audited.close();
  }
} finally {
  await browser.close();
  server.child.kill('SIGTERM');
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
if (failed) {
  console.error('Un budget est manqué.');
  process.exit(1);
}
