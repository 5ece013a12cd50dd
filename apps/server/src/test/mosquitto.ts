import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import os from 'node:os';
import { freePort } from './child-process.ts';

const PLUGIN_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib'];
const BINARY = fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';

export interface Mosquitto {
  port: number;
  /** Vigie's account on this broker, as MQTT_BROKER_URL. */
  url: string;
  /** The broker's log so far (to explain a failure). */
  log(): string;
  stop(): Promise<void>;
}

function plugin(): string {
  const found = PLUGIN_DIRS.map((dir) => path.join(dir, 'mosquitto_dynamic_security.so')).find((file) => fs.existsSync(file));
  if (!found) throw new Error('mosquitto_dynamic_security.so introuvable : lancez node scripts/ensure-mosquitto.mjs');
  return found;
}

async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`Mosquitto s'est arrêté au démarrage :\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await delay(50);
  }
  throw new Error(`Mosquitto n'écoute pas sur ${port} :\n${log()}`);
}

/**
 * A real Mosquitto 2 on a free port, with a configuration generated here: no anonymous access,
 * the dynamic-security plugin with one administrator (Vigie's account), persistence in a temporary
 * folder, and the telemetry packet limit.
 */
export async function startMosquitto(options: { port?: number; dir?: string; user?: string; password?: string } = {}): Promise<Mosquitto> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-mosquitto-'));
  const port = options.port ?? (await freePort());
  const user = options.user ?? 'vigie';
  const password = options.password ?? 'mot-de-passe-du-broker';
  const securityFile = path.join(dir, 'dynamic-security.json');
  if (!fs.existsSync(securityFile)) {
    execFileSync('mosquitto_ctrl', ['dynsec', 'init', securityFile, user, password], { stdio: 'ignore' });
  }
  const configFile = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    configFile,
    [
      // Started as root, Mosquitto would switch to its own user, who cannot read this folder.
      `user ${os.userInfo().username}`,
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `plugin ${plugin()}`,
      `plugin_opt_config_file ${securityFile}`,
      'persistence true',
      `persistence_location ${dir}/`,
      // A telemetry message is 1 MiB at most; the topic and properties fit in the rest.
      'max_packet_size 1114112',
      'max_queued_messages 100000',
      'log_dest stdout',
      'log_type error',
      'log_type warning',
      'log_type notice',
      '',
    ].join('\n'),
  );
  let output = '';
  const child = spawn(BINARY, ['-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await listening(port, child, () => output);
  return {
    port,
    url: `mqtt://${user}:${password}@127.0.0.1:${port}`,
    log: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
