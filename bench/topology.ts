/**
 * `npm run topology`: two Vigie instances behind nginx (HTTP, and a TCP stream for MQTT) on one
 * PostgreSQL, with an external Mosquitto in broker mode. The simulator drives shops through the
 * load balancer (MQTT 3.1.1, MQTT 5 and HTTP); one instance is killed with SIGKILL in the middle,
 * then started again as a supervisor would. The run checks that every acknowledged reading is
 * stored exactly once, that live streams reconnect to the other instance and miss nothing
 * (Last-Event-ID), and that alerts, their e-mails and the offline announcements happen once.
 * It prints a summary and exits 1 on any loss.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { startMosquitto } from '../apps/server/src/test/mosquitto.ts';
import { startSmtpCatcher } from '../apps/server/src/test/smtp-catcher.ts';
import { fmt, freePort, json, root } from './support.ts';

const SHOPS = [
  { name: 'Topologie MQTT 3.1.1', args: ['--transport', 'mqtt', '--mqtt-version', '3.1.1', '--sensors', '10', '--rate', '2'] },
  { name: 'Topologie MQTT 5', args: ['--transport', 'mqtt', '--mqtt-version', '5', '--sensors', '10', '--rate', '2'] },
  { name: 'Topologie HTTP', args: ['--transport', 'http', '--sensors', '6', '--rate', '1'] },
] as const;
const SIMULATION_SECONDS = 36;
const KILL_AFTER_MS = 12_000;
const RESTART_AFTER_MS = 20_000;
const ACCOUNT = { email: 'topologie@example.fr', password: 'topologie-mot-de-passe', org: 'Topologie' };
const JWT_SECRET = 'un-secret-partagé-par-les-deux-instances-de-la-topologie';

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-topology-'));
const cleanups: (() => Promise<void> | void)[] = [];
const failures: string[] = [];
const summary: [string, string][] = [];
const check = (ok: boolean, label: string, figure: string) => {
  summary.push([`${ok ? 'OK   ' : 'ÉCHEC'} ${label}`, figure]);
  if (!ok) failures.push(label);
};
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} : ${result.stderr || result.stdout}`);
  return result.stdout;
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await delay(200);
  }
  throw new Error(`${what} : toujours pas au bout de ${timeoutMs / 1000} s`);
}

// ---- Vigie instances -------------------------------------------------------------------------

interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  start(): Promise<void>;
}

function instance(name: string, port: number, env: NodeJS.ProcessEnv): Instance {
  const logFile = path.join(runDir, `vigie-${name}.log`);
  const self: Instance = {
    name,
    port,
    child: undefined as unknown as ChildProcess,
    async start() {
      const out = fs.openSync(logFile, 'a');
      self.child = spawn(process.execPath, ['apps/server/dist/main.js'], {
        cwd: root,
        env: { ...env, PORT: String(port), MQTT_BROKER_CLIENT_ID: `vigie-topologie-${name}` },
        stdio: ['ignore', out, out],
      });
      await waitFor(`L'instance ${name} démarre (${logFile})`, async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).ok, 60_000);
    },
  };
  return self;
}

// ---- Live streams ----------------------------------------------------------------------------

interface StreamWatch {
  label: string;
  ids: Set<string>;
  /** Ids in order, with the moment each arrived. */
  seen: { id: string; type: string; data: string; at: number }[];
  reconnections: number;
  connected: boolean;
  resyncs: number;
  firstAt: number | null;
  stop(): void;
}

/** Reads /api/stream as the web app does (fetch, Authorization), reconnecting with Last-Event-ID. */
function watchStream(label: string, base: string, token: string): StreamWatch {
  const watch: StreamWatch = {
    label,
    ids: new Set(),
    seen: [],
    reconnections: -1,
    connected: false,
    resyncs: 0,
    firstAt: null,
    stop: () => undefined,
  };
  let stopped = false;
  let controller = new AbortController();
  let lastEventId: string | undefined;
  watch.stop = () => {
    stopped = true;
    controller.abort();
  };
  void (async () => {
    while (!stopped) {
      watch.reconnections += 1;
      controller = new AbortController();
      try {
        const response = await fetch(`${base}/api/stream`, {
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'text/event-stream',
            ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
          },
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw new Error(`flux ${response.status}`);
        watch.connected = true;
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let id: string | undefined;
            let type = 'message';
            const data: string[] = [];
            for (const line of frame.split('\n')) {
              if (line.startsWith('id: ')) id = line.slice(4);
              else if (line.startsWith('event: ')) type = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (type === 'resync') watch.resyncs += 1;
            if (!id) continue;
            lastEventId = id;
            watch.firstAt ??= Date.now();
            if (!watch.ids.has(id)) watch.seen.push({ id, type, data: data.join('\n'), at: Date.now() });
            watch.ids.add(id);
          }
        }
      } catch {
        // Cut (its instance died) or refused: try again, as the web app does.
      }
      if (!stopped) await delay(500);
    }
  })();
  return watch;
}

// ---- The run ---------------------------------------------------------------------------------

async function main(): Promise<void> {
  run('node', ['scripts/ensure-nginx.mjs']);
  run('node', ['scripts/ensure-mosquitto.mjs']);
  // The simulator and the server as they are now (the dist folder may predate the sources).
  run('npm', ['run', 'build', '-w', '@vigie/server']);

  const adminUrl = process.env['PG_ADMIN_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `vigie_topology_${Date.now()}`;
  run('node', ['scripts/pg-database.mjs', 'create', database], { ...process.env, PG_ADMIN_URL: adminUrl });
  cleanups.push(() => void run('node', ['scripts/pg-database.mjs', 'drop', database], { ...process.env, PG_ADMIN_URL: adminUrl }));
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;

  const broker = await startMosquitto({ dir: fs.mkdtempSync(path.join(runDir, 'mosquitto-')) });
  cleanups.push(() => broker.stop());
  const smtp = await startSmtpCatcher();
  cleanups.push(() => smtp.close());

  const [portA, portB, lbHttp, lbMqtt] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const lbBase = `http://127.0.0.1:${lbHttp}`;

  // nginx: HTTP across both instances (streams unbuffered), and MQTT's TCP stream to the broker.
  const nginxConf = path.join(runDir, 'nginx.conf');
  fs.writeFileSync(
    nginxConf,
    `load_module /usr/lib/nginx/modules/ngx_stream_module.so;
${process.getuid?.() === 0 ? 'user root;' : ''}
daemon off;
worker_processes 1;
pid ${runDir}/nginx.pid;
error_log ${runDir}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${runDir}/nginx-body;
  proxy_temp_path ${runDir}/nginx-proxy;
  fastcgi_temp_path ${runDir}/nginx-fastcgi;
  uwsgi_temp_path ${runDir}/nginx-uwsgi;
  scgi_temp_path ${runDir}/nginx-scgi;
  upstream vigie {
    server 127.0.0.1:${portA} max_fails=1 fail_timeout=3s;
    server 127.0.0.1:${portB} max_fails=1 fail_timeout=3s;
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${lbHttp};
    location / {
      proxy_pass http://vigie;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
stream {
  upstream mqtt { server 127.0.0.1:${broker.port}; }
  server { listen 127.0.0.1:${lbMqtt}; proxy_pass mqtt; proxy_timeout 1h; }
}
`,
  );
  const nginx = spawn('/usr/sbin/nginx', ['-c', nginxConf, '-p', runDir, '-e', path.join(runDir, 'nginx-error.log')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cleanups.push(() => void nginx.kill('SIGQUIT'));

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    JWT_SECRET,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    MQTT_BROKER_URL: broker.url,
    MQTT_BROKER_PUBLIC_PORT: String(lbMqtt),
    SMTP_URL: smtp.url,
    PUBLIC_URL: lbBase,
    TRUST_PROXY: 'true',
    INSIGHTS_INTERVAL_SECONDS: '0',
    // The simulators share one address: login and installation limits must not get in their way.
    LOGIN_MAX_FAILURES_PER_IP: '10000',
  };
  run(
    process.execPath,
    ['apps/server/dist/user-create.js', '--email', ACCOUNT.email, '--password', ACCOUNT.password, '--org', ACCOUNT.org],
    env,
  );
  const a = instance('a', portA, env);
  const b = instance('b', portB, env);
  // Before they start: one that does not get ready must not leave the other running.
  cleanups.push(() => {
    for (const one of [a, b]) if (one.child && one.child.exitCode === null && one.child.signalCode === null) one.child.kill('SIGTERM');
  });
  await Promise.all([a.start(), b.start()]);
  await waitFor('nginx répond', async () => (await fetch(`${lbBase}/api/health`)).ok);
  log(`Deux instances (${portA}, ${portB}) derrière nginx (HTTP ${lbHttp}, MQTT ${lbMqtt}), Mosquitto ${broker.port}, base ${database}`);

  const { accessToken } = await json<{ accessToken: string }>(`${lbBase}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email: ACCOUNT.email, password: ACCOUNT.password }),
  });
  const auth = { authorization: `Bearer ${accessToken}` };
  const { installationKey } = await json<{ installationKey: string }>(`${lbBase}/api/organization/installation-key`, { headers: auth });
  // Each shop watched by a rule that every temperature reading breaks: one alert per sensor, at once.
  for (const shop of SHOPS) {
    const { site } = await json<{ site: { id: string } }>(`${lbBase}/api/sites`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: shop.name }),
    });
    await json(`${lbBase}/api/alert-rules`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: `Témoin ${shop.name}`,
        siteId: site.id,
        condition: { type: 'above', key: 'temperature', threshold: -100 },
        severity: 'warning',
      }),
    });
  }

  // Live streams: two through nginx (one lands on each instance), one witness on instance B.
  const viaLb = [watchStream('flux 1 (nginx)', lbBase, accessToken), watchStream('flux 2 (nginx)', lbBase, accessToken)];
  const witness = watchStream('témoin (instance b)', `http://127.0.0.1:${portB}`, accessToken);
  await waitFor('les flux sont ouverts', async () => [...viaLb, witness].every((w) => w.connected), 10_000);
  await delay(1000);

  log(`Simulateurs : ${SHOPS.map((shop) => shop.name).join(', ')} pendant ${SIMULATION_SECONDS} s, via nginx`);
  const simulators = SHOPS.map((shop, index) => {
    const acked = path.join(runDir, `acked-${index}.txt`);
    const output: string[] = [];
    const child = spawn(
      process.execPath,
      [
        'apps/server/dist/simulate.js',
        '--url',
        lbBase,
        '--key',
        installationKey,
        '--shop',
        shop.name,
        '--duration',
        String(SIMULATION_SECONDS),
        '--acked',
        acked,
        ...shop.args,
      ],
      { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
    return { shop, acked, output, exited, child };
  });
  cleanups.push(() => {
    for (const simulator of simulators) if (simulator.child.exitCode === null) simulator.child.kill('SIGKILL');
  });

  await delay(KILL_AFTER_MS);
  log(`SIGKILL de l'instance a (pid ${a.child.pid ?? '?'})`);
  const killedAt = Date.now();
  a.child.kill('SIGKILL');
  await delay(RESTART_AFTER_MS - KILL_AFTER_MS);
  log("L'instance a redémarre (même MQTT_BROKER_CLIENT_ID : ses messages l'attendaient chez le broker)");
  await a.start();
  const restartedAt = Date.now();

  const codes = await Promise.all(simulators.map((simulator) => simulator.exited));
  const simulationEndedAt = Date.now();
  for (const [index, simulator] of simulators.entries()) {
    if (codes[index] !== 0) throw new Error(`Le simulateur « ${simulator.shop.name} » a échoué :\n${simulator.output.join('')}`);
  }
  log('Simulateurs arrêtés ; vérification');

  // ---- Every acknowledged reading stored, exactly once ----
  const client = new pg.Client({ connectionString: databaseUrl.toString() });
  await client.connect();
  cleanups.push(() => client.end());
  const storedOf = async (ids: string[]) => {
    const { rows } = await client.query<{ reading_id: string; rows: string; keys: string }>(
      'select reading_id, count(*) as rows, count(distinct key) as keys from readings where reading_id = any($1) group by reading_id',
      [ids],
    );
    return rows;
  };
  for (const simulator of simulators) {
    const ids = [...new Set(fs.readFileSync(simulator.acked, 'utf8').split('\n').filter(Boolean))];
    let stored = await storedOf(ids);
    const deadline = Date.now() + 60_000;
    while (stored.length < ids.length && Date.now() < deadline) {
      await delay(500);
      stored = await storedOf(ids);
    }
    const duplicated = stored.filter((row) => Number(row.rows) !== Number(row.keys)).length;
    // Reading ids end with their time: those sent while instance a was down.
    const duringOutage = ids.filter((id) => {
      const sentAt = Number(id.slice(id.lastIndexOf('-') + 1));
      return sentAt >= killedAt && sentAt < restartedAt;
    }).length;
    check(
      stored.length === ids.length && duplicated === 0 && ids.length > 0,
      `${simulator.shop.name} : lectures acquittées enregistrées une fois`,
      `${fmt(stored.length)} / ${fmt(ids.length)} (dont ${fmt(duringOutage)} pendant l'arrêt de a), ${duplicated} en double`,
    );
  }
  const { rows: dupes } = await client.query<{ n: string }>(
    'select count(*) as n from (select device_id, reading_id, key from readings where reading_id is not null group by 1, 2, 3 having count(*) > 1) d',
  );
  check(Number(dupes[0]?.n ?? 0) === 0, 'aucune lecture en double dans la base', `${dupes[0]?.n ?? '?'} en double`);

  // ---- Alerts and their e-mails, once ----
  const { sensors } = await json<{ sensors: { id: string; name: string }[] }>(`${lbBase}/api/sensor`, { headers: auth });
  const { rows: temperatureSensors } = await client.query<{ device_id: string }>(
    "select distinct device_id from latest_values where key = 'temperature'",
  );
  await waitFor(
    'une alerte par capteur de température, et son e-mail',
    async () => {
      const { alerts } = await json<{ alerts: unknown[] }>(`${lbBase}/api/alerts`, { headers: auth });
      return alerts.length >= temperatureSensors.length && smtp.received.length >= temperatureSensors.length;
    },
    45_000,
  ).catch(() => undefined);
  const { alerts } = await json<{ alerts: { id: string; ruleId: string; sensorId: string; events: { type: string }[] }[] }>(
    `${lbBase}/api/alerts`,
    { headers: auth },
  );
  const pairs = new Map<string, number>();
  for (const alert of alerts) pairs.set(`${alert.ruleId}/${alert.sensorId}`, (pairs.get(`${alert.ruleId}/${alert.sensorId}`) ?? 0) + 1);
  const twice = [...pairs.values()].filter((count) => count > 1).length;
  check(
    alerts.length === temperatureSensors.length && twice === 0,
    'une alerte ouverte par capteur de température, une seule fois',
    `${alerts.length} alertes pour ${temperatureSensors.length} capteurs, ${twice} en double`,
  );
  await delay(3000);
  const subjects = smtp.received.map((mail) => mail.subject ?? '');
  const repeatedMail = subjects.length - new Set(subjects).size;
  check(
    smtp.received.length === alerts.length && repeatedMail === 0,
    'un e-mail par alerte ouverte',
    `${smtp.received.length} e-mails pour ${alerts.length} alertes, ${repeatedMail} en double`,
  );

  // ---- Offline announcements (a periodic job on both instances), once per device ----
  const { emitters } = await json<{ emitters: { id: string }[] }>(`${lbBase}/api/emitter`, { headers: auth });
  const deviceIds = [...sensors.map((sensor) => sensor.id), ...emitters.map((emitter) => emitter.id)];
  const offlineEvents = (watch: StreamWatch) =>
    watch.seen.filter((event) => {
      if (event.type !== 'device') return false;
      const data = JSON.parse(event.data) as { action?: string; device?: { status?: string } };
      return data.action === 'status' && data.device?.status === 'offline';
    });
  const offlineCount = () => {
    const perDevice = new Map<string, number>();
    for (const event of offlineEvents(witness)) {
      const id = (JSON.parse(event.data) as { device: { id: string } }).device.id;
      perDevice.set(id, (perDevice.get(id) ?? 0) + 1);
    }
    return perDevice;
  };
  log(`Attente de l'annonce « hors ligne » des ${deviceIds.length} appareils (30 s de silence, tâche toutes les 15 s)`);
  await waitFor('chaque appareil annoncé hors ligne', async () => offlineCount().size >= deviceIds.length, 90_000).catch(() => undefined);
  await delay(16_000);
  const perDevice = offlineCount();
  const announcedTwice = [...perDevice.values()].filter((count) => count > 1).length;
  check(
    perDevice.size === deviceIds.length && announcedTwice === 0,
    'chaque appareil annoncé hors ligne une fois (tâche des deux instances)',
    `${perDevice.size} / ${deviceIds.length}, ${announcedTwice} annoncés deux fois`,
  );

  // ---- Live streams: reconnected through nginx, nothing missed ----
  for (const watch of [...viaLb, witness]) watch.stop();
  const witnessed = witness.seen.filter((event) => event.at <= simulationEndedAt + 5_000);
  const cut = viaLb.filter((watch) => watch.reconnections > 0);
  check(
    cut.length >= 1,
    'un flux coupé avec son instance se reconnecte par nginx',
    `${cut.map((w) => `${w.label} : ${w.reconnections} reconnexion(s)`).join(', ') || 'aucun flux coupé'}`,
  );
  for (const watch of viaLb) {
    const from = watch.firstAt ?? Infinity;
    const missed = witnessed.filter((event) => event.at >= from + 1000 && !watch.ids.has(event.id));
    check(
      missed.length === 0 && watch.resyncs === 0,
      `${watch.label} : rien de manqué (Last-Event-ID)`,
      `${fmt(witnessed.length)} événements du témoin, ${missed.length} manqués, ${watch.resyncs} « resync »`,
    );
  }
  summary.push([
    'instance a tuée puis relancée',
    `SIGKILL à +${KILL_AFTER_MS / 1000} s, relancée à +${RESTART_AFTER_MS / 1000} s (${((Date.now() - killedAt) / 1000).toFixed(0)} s avant la fin du contrôle)`,
  ]);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  failures.push((error as Error).message);
  console.error(`\n${(error as Error).message}`);
  exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
}
console.log('\nTopologie : 2 instances Vigie + nginx + PostgreSQL + Mosquitto (broker externe)');
const width = Math.max(0, ...summary.map(([label]) => label.length));
for (const [label, figure] of summary) console.log(`  ${label.padEnd(width)}  ${figure}`);
if (failures.length > 0) {
  console.log(`\n${failures.length} échec(s) : ${failures.join(' ; ')}\nJournaux : ${runDir}`);
  exitCode = 1;
} else {
  fs.rmSync(runDir, { recursive: true, force: true });
}
process.exit(exitCode);
