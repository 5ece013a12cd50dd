import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { memoryTemplate } from './pglite-template.ts';

const serverRoot = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningChild {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/** Runs a TypeScript entry point of the server (src/…) as a real child process. */
export function runTs(entry: string, args: string[], env: Record<string, string | undefined>): RunningChild {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverRoot, entry), ...args], {
    cwd: serverRoot,
    // An undefined value removes the variable (e.g. DATABASE_URL for an embedded-only test).
    // A new DATA_DIR starts from the suite's migrated database, as the tests' own databases do: a
    // first start then takes a few seconds rather than twelve.
    env: Object.fromEntries(
      Object.entries({ ...process.env, LOG_LEVEL: 'warn', PGLITE_TEMPLATE: memoryTemplate(), ...env }).filter(
        ([, value]) => value !== undefined,
      ),
    ),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, output: () => output, exited };
}

export interface RunningServer extends RunningChild {
  baseUrl: string;
}

/** Starts the real server (src/main.ts) and waits until /api/health answers. */
export async function startServer(env: Record<string, string | undefined>): Promise<RunningServer> {
  const port = await freePort();
  const running = runTs('src/main.ts', [], { PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: '0', SEED_DEMO: 'false', ...env });
  const baseUrl = `http://127.0.0.1:${port}`;
  let ended = false;
  void running.exited.then(() => (ended = true));
  for (let i = 0; i < 300 && !ended; i += 1) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { ...running, baseUrl };
    } catch {
      // Not listening yet.
    }
    await delay(200);
  }
  running.child.kill('SIGKILL');
  throw new Error(`Le serveur n'a pas démarré :\n${running.output()}`);
}

export async function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  script = 'src/cli/user-create.ts',
): Promise<{ code: number | string; output: string }> {
  const running = runTs(script, args, env);
  const code = await running.exited;
  return { code, output: running.output() };
}
