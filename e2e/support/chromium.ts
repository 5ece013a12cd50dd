import { existsSync } from 'node:fs';

/** Debian's Chromium (or CHROMIUM_PATH) and the flags it needs here, for the configuration and for tests that launch their own. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`, or CHROMIUM_HEADLESS_SHELL_PATH):
 * the same Blink without the full browser around it, for about half the processor time per page.
 * It offers no notifications and no push, so the specs of those keep the full browser. Where it is
 * missing (CHROMIUM_PATH pointing elsewhere, no package), every spec uses CHROMIUM_PATH.
 */
export const HEADLESS_SHELL_PATH = ((): string => {
  const configured = process.env['CHROMIUM_HEADLESS_SHELL_PATH'];
  if (configured) return configured;
  const debian = '/usr/bin/chromium-headless-shell';
  return !process.env['CHROMIUM_PATH'] && existsSync(debian) ? debian : CHROMIUM_PATH;
})();

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
