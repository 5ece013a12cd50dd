/** What the attack families share: the real server process, HTTP calls, the health sampler, the result rows. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort, root } from '../support.ts';

export interface FamilyResult {
  family: string;
  database: string;
  tries: number;
  failures: string[];
  /** Budget figures, printed under the table (`label`, `value`, within budget). */
  figures: { label: string; value: string; ok: boolean }[];
  ms: number;
}

/** A family adds one try at a time, and the reason of each failure (the first ones are printed). */
export class Tally {
  tries = 0;
  failures: string[] = [];
  figures: FamilyResult['figures'] = [];
  check(ok: boolean, reason: () => string): boolean {
    this.tries += 1;
    if (!ok) this.failures.push(reason());
    return ok;
  }
  figure(label: string, value: string, ok: boolean): void {
    this.figures.push({ label, value, ok });
    if (!ok) this.failures.push(`budget manqué : ${label} = ${value}`);
  }
}

export const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000, stepMs = 200): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return true;
    await delay(stepMs);
  }
  log(`${what} : toujours pas au bout de ${Math.round(timeoutMs / 1000)} s`);
  return false;
}

/** Runs `fn` over `items`, `width` at a time. */
export async function pool<T, R>(items: readonly T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        results[index] = await fn(items[index] as T, index);
      }
    }),
  );
  return results;
}

// ---- The server process ----------------------------------------------------------------------

export interface Vigie {
  base: string;
  mqttUrl: string;
  env: NodeJS.ProcessEnv;
  child: ChildProcess;
  logFile: string;
  start(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `apps/server/dist/main.js` on free loopback ports, its output in `logFile`; restartable on the same ports and data. */
export async function vigie(env: NodeJS.ProcessEnv, logFile: string): Promise<Vigie> {
  const port = await freePort();
  const mqttPort = await freePort();
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    DEMO_SIMULATOR: 'false',
    INSIGHTS_INTERVAL_SECONDS: '0',
    HOST: '127.0.0.1',
    PORT: String(port),
    MQTT_PORT: String(mqttPort),
    ...env,
  };
  const self: Vigie = {
    base: `http://127.0.0.1:${port}`,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    env: fullEnv,
    child: undefined as unknown as ChildProcess,
    logFile,
    async start() {
      const out = fs.openSync(logFile, 'a');
      // To look inside the server during a run: ATTACK_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/profils".
      const nodeArgs = process.env['ATTACK_SERVER_NODE_ARGS']?.split(' ').filter(Boolean) ?? [];
      self.child = spawn(process.execPath, [...nodeArgs, 'apps/server/dist/main.js'], {
        cwd: root,
        env: fullEnv,
        stdio: ['ignore', out, out],
      });
      fs.closeSync(out);
      const up = await waitFor(
        'le serveur démarre',
        async () => (await fetch(`${self.base}/api/health`, { signal: AbortSignal.timeout(2000) })).ok,
        60_000,
      );
      if (!up) throw new Error(`Le serveur ne démarre pas (journal : ${logFile})`);
    },
    async stop(signal = 'SIGTERM') {
      const child = self.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return self;
}

/** An account made by the operator's script (the server stopped, or through it on the embedded database). */
export function createAccount(env: NodeJS.ProcessEnv, email: string, password: string, org: string): void {
  const created = spawnSync(process.execPath, ['apps/server/dist/user-create.js', '--email', email, '--password', password, '--org', org], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`Création du compte ${email} impossible : ${created.stderr}`);
}

// ---- HTTP ------------------------------------------------------------------------------------

export interface Answer {
  status: number;
  text: string;
  type: string;
  ms: number;
  body: unknown;
}

export interface CallOptions {
  token?: string | undefined;
  body?: unknown;
  /** Sent as is (a malformed body). */
  raw?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export async function call(base: string, method: string, url: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (options.raw !== undefined) {
    body = options.raw;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const started = performance.now();
  try {
    const response = await fetch(`${base}${url}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    let parsed: unknown;
    if (type.includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: response.status, text, type, ms: performance.now() - started, body: parsed };
  } catch (error) {
    // A reset or a timeout: status 0, told apart from any HTTP answer.
    return { status: 0, text: String(error), type: '', ms: performance.now() - started, body: undefined };
  }
}

/** The call must answer 2xx; its JSON body. */
export async function ok<T>(base: string, method: string, url: string, options: CallOptions = {}): Promise<T> {
  const answer = await call(base, method, url, options);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${url} : ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.body as T;
}

const ENGLISH = /\b(the|must|should|is|are|not|invalid|expected|required|request|unsupported|payload|error|header|body|too|large|found)\b/i;

/** An error answer the client can show: JSON `{message}`, a French sentence (no English words, no stack). */
export function frenchError(answer: Answer): string | undefined {
  // SCIM's routes answer in SCIM's own error format (RFC 7644 §3.12): `detail` holds the message.
  const scim = answer.type.includes('application/scim+json');
  if (!answer.type.includes('application/json') && !scim)
    return `réponse ${answer.status} qui n'est pas du JSON (${answer.type || 'sans type'})`;
  const body = answer.body as { message?: unknown; detail?: unknown } | undefined;
  const message = scim ? body?.detail : body?.message;
  if (typeof message !== 'string' || message.trim() === '') return `réponse ${answer.status} sans « ${scim ? 'detail' : 'message'} »`;
  if (ENGLISH.test(message)) return `réponse ${answer.status} en anglais : ${message.slice(0, 120)}`;
  if (/\bat .+:\d+:\d+/.test(answer.text) || /\bselect\b|\binsert into\b/i.test(answer.text))
    return `réponse ${answer.status} qui montre du code`;
  return undefined;
}

export const describe = (method: string, url: string, answer: Answer) =>
  `${method} ${url} → ${answer.status} ${answer.text.replace(/\s+/g, ' ').slice(0, 160)}`;

// ---- Health latency and CPU, measured from outside -------------------------------------------

export interface Sampler {
  stop(): Promise<number[]>;
  /** The slowest answer and when it was asked, in ms after the sampler started. */
  worst(): { ms: number; at: number };
}

/** GET /api/health every `everyMs`, one at a time: an answer that waits counts its whole wait. */
export function sampleHealth(base: string, everyMs = 100): Sampler {
  const latencies: number[] = [];
  let stopped = false;
  const origin = performance.now();
  let worst = { ms: 0, at: 0 };
  const running = (async () => {
    while (!stopped) {
      const started = performance.now();
      await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(30_000) })
        .then((response) => response.arrayBuffer())
        .catch(() => undefined);
      const ms = performance.now() - started;
      latencies.push(ms);
      if (ms > worst.ms) worst = { ms, at: started - origin };
      if (ms < everyMs) await delay(everyMs - ms);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      return latencies;
    },
    worst: () => worst,
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** CPU time (user + system) of a process in seconds, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name; ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The share of one core the process used over `ms`. */
export async function cpuShare(pid: number, ms: number): Promise<number> {
  const before = cpuSeconds(pid);
  const started = performance.now();
  await delay(ms);
  return (cpuSeconds(pid) - before) / ((performance.now() - started) / 1000);
}

export const ms = (value: number) => `${Math.round(value).toLocaleString('fr-FR')} ms`;
export const runDirOf = (dir: string, name: string) => path.join(dir, name);
