/**
 * What a visitor's browser downloads: JavaScript transferred for the landing page and the login
 * page, measured by Debian's Chromium on the production build served by the real server, next to
 * the budget. Exits non-zero when a budget is missed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { type BenchServer, ensureBuilt, startServer } from './support';

/** kB of JavaScript transferred (compressed, as on the wire) before the page is idle. */
const BUDGET_JS_KB = 110;
const PAGES = ['/', '/login'];

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
} finally {
  await browser.close();
  server.child.kill('SIGTERM');
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
if (failed) {
  console.error('Un budget est manqué.');
  process.exit(1);
}
