import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isDatabaseUnavailable } from './connection-errors.ts';
import { countRows, provision, sendTelemetry } from '../test/device-helpers.ts';
import { type TestAccount, type TestApp, createTestApp, databaseUrl } from '../test/test-app.ts';

// Connection faults only exist on a real PostgreSQL server; the embedded run has no network to cut.
describe.runIf(databaseUrl)('PostgreSQL connection faults', () => {
  const applicationName = `vigie-faults-${randomUUID().slice(0, 8)}`;
  let t: TestApp;
  let account: TestAccount;
  let admin: pg.Client;

  beforeAll(async () => {
    t = await createTestApp({ applicationName });
    account = await t.createAccount();
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await t?.close();
  });

  /** The status once a request succeeds, within a few quick retries. */
  const eventuallyOk = async (request: () => Promise<{ statusCode: number }>) => {
    let status = 0;
    for (let attempt = 0; attempt < 10 && status !== 200; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await request()).statusCode;
    }
    return status;
  };

  const terminateServerConnections = async () =>
    (await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [applicationName])).rowCount ??
    0;

  it('survives pg_terminate_backend mid-traffic: 503 with a message while cut, then success again', async () => {
    const statuses: number[] = [];
    const messages = new Set<string>();
    let running = true;
    const traffic = (async () => {
      while (running) {
        const batch = await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            i % 2
              ? t.app.inject({ url: '/api/emitter', headers: account.auth })
              : t.app.inject({ method: 'POST', url: '/api/sensor', headers: account.auth, payload: { name: 'trafic' } }),
          ),
        );
        for (const response of batch) {
          statuses.push(response.statusCode);
          if (response.statusCode !== 200 && response.statusCode !== 201) messages.add(response.body);
        }
      }
    })();
    // Each cut lands on traffic under way: a few more answers between two cuts, and after the last.
    const moreAnswers = async (count: number) => {
      const target = statuses.length + count;
      await vi.waitFor(() => expect(statuses.length).toBeGreaterThanOrEqual(target), { timeout: 10_000, interval: 10 });
    };
    await moreAnswers(8);
    let killed = 0;
    for (let i = 0; i < 5; i += 1) {
      killed += await terminateServerConnections();
      await moreAnswers(4);
    }
    await moreAnswers(8);
    running = false;
    await traffic;

    expect(killed).toBeGreaterThan(0);
    // Requests caught on a terminated connection fail cleanly with 503 rather than hanging or crashing.
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
    expect(
      statuses.every((status) => [200, 201, 503].includes(status)),
      `statuses: ${[...new Set(statuses)].join(',')}`,
    ).toBe(true);
    for (const message of messages) {
      expect(JSON.parse(message)).toEqual({ message: expect.stringMatching(/indisponible/) });
    }
    // And it recovers by itself (a dead idle connection may still be handed out once).
    expect(await eventuallyOk(() => t.app.inject({ url: '/api/emitter', headers: account.auth }))).toBe(200);
    expect(await eventuallyOk(() => t.app.inject({ url: '/api/ready' }))).toBe(200);
  });

  it('a busy connection terminated during a query fails that query cleanly; requests then succeed again', async () => {
    const slow = t.database.db.execute(sql`select pg_sleep(5)`).then(
      () => 'finished',
      (error: unknown) => error,
    );
    // Terminated while the query runs on the server.
    await vi.waitFor(
      async () => {
        const running = await admin.query(
          "select 1 from pg_stat_activity where application_name = $1 and state = 'active' and query like '%pg_sleep(5)%'",
          [applicationName],
        );
        expect(running.rowCount).toBeGreaterThan(0);
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(await terminateServerConnections()).toBeGreaterThan(0);
    const outcome = await slow;
    expect(outcome).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(outcome)).toBe(true);
    // An idle connection killed at the same moment may still be handed out once before the pool
    // hears of its death: that request answers 503 with the message; the following ones succeed.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10 && statuses.at(-1) !== 200; attempt += 1) {
      const response = await t.app.inject({ url: '/api/user/me', headers: account.auth });
      statuses.push(response.statusCode);
      if (response.statusCode !== 200) {
        expect(response.statusCode).toBe(503);
        expect(response.json<{ message: string }>().message).toMatch(/indisponible/);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(statuses.at(-1), `statuses: ${statuses.join(',')}`).toBe(200);
  });

  it('a connection dropped inside a transaction, between two statements, fails that transaction without crashing', async () => {
    const outcome = await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        const inTransaction = await admin.query<{ pid: number }>(
          "select pid from pg_stat_activity where application_name = $1 and state = 'idle in transaction'",
          [applicationName],
        );
        expect(await terminateServerConnections()).toBeGreaterThan(0);
        // The client is checked out and idle while its connection dies (no listener of the pool):
        // the next statement is sent once the server process is gone.
        await vi.waitFor(
          async () => {
            const pids = inTransaction.rows.map((row) => row.pid);
            const left = await admin.query('select 1 from pg_stat_activity where pid = any($1::int[])', [pids]);
            expect(left.rowCount).toBe(0);
          },
          { timeout: 5_000, interval: 20 },
        );
        await tx.execute(sql`select 1`);
      })
      .then(
        () => 'committed',
        (error: unknown) => error,
      );
    expect(isDatabaseUnavailable(outcome)).toBe(true);
    expect(await eventuallyOk(() => t.app.inject({ url: '/api/user/me', headers: account.auth }))).toBe(200);
  });

  it('transactions that meet connections killed in the pool give them back: the pool never shrinks for good', async () => {
    const name = `vigie-pool-${randomUUID().slice(0, 8)}`;
    const own = await createTestApp({ applicationName: name });
    const kill = async () =>
      (await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name])).rowCount ?? 0;
    const burst = async (size: number) =>
      Promise.allSettled(
        Array.from({ length: size }, () => own.database.db.transaction(async (tx) => tx.execute(sql`select pg_sleep(0.02)`))),
      );
    let closed = false;
    try {
      // Five outages: each time the pool's ten connections are killed, then used at once (some
      // BEGINs meet a dead connection). A client not given back would stay lost.
      for (let cut = 0; cut < 5; cut += 1) {
        await burst(10);
        expect(await kill()).toBeGreaterThan(0);
        await burst(10);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // A pool that lost its clients makes these wait for its 5 s connection timeout and fail.
      const outcomes = await burst(20);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      // And a pool with a client never given back cannot close.
      const closing = own.close().then(() => 'closed');
      closed = true;
      expect(await Promise.race([closing, new Promise((resolve) => setTimeout(() => resolve('stuck'), 5000))])).toBe('closed');
    } finally {
      if (!closed) await own.close();
    }
  });

  it('telemetry caught by a cut is written once the connection is replaced, without the device resending', async () => {
    const device = await provision(t, account, 'sensor');
    // Warm the pool, then kill every connection it holds: the next write meets a dead one.
    expect((await sendTelemetry(t, device.accessToken, { temperature: 1 })).statusCode).toBe(202);
    expect(await terminateServerConnections()).toBeGreaterThan(0);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await sendTelemetry(t, device.accessToken, [{ id: `cut-${i}`, temperature: 2 + i }])).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    expect(await countRows(t, device.deviceId)).toBe(6);
  });

  it('answers 503 while PostgreSQL cannot be reached at all, then recovers by itself when it comes back', async () => {
    // A real TCP relay in front of PostgreSQL: closing it is a network outage, reopening it the return.
    const target = new URL(databaseUrl ?? '');
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as net.AddressInfo).port;
    const viaRelay = new URL(databaseUrl ?? '');
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(port);

    const cut = await createTestApp({ env: { DATABASE_URL: viaRelay.toString() } });
    try {
      const user = await cut.createAccount();
      expect((await cut.app.inject({ url: '/api/ready' })).statusCode).toBe(200);

      await new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      const ready = await cut.app.inject({ url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ message: expect.stringMatching(/indisponible/) });
      const list = await cut.app.inject({ url: '/api/emitter', headers: user.auth });
      expect(list.statusCode).toBe(503);
      expect(list.json()).toEqual({ message: expect.stringMatching(/indisponible/) });
      expect((await cut.app.inject({ url: '/api/health' })).statusCode).toBe(200);

      await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
      expect((await cut.app.inject({ url: '/api/ready' })).statusCode).toBe(200);
      expect((await cut.app.inject({ url: '/api/emitter', headers: user.auth })).statusCode).toBe(200);
    } finally {
      await cut.close();
      relay.close();
      for (const socket of sockets) socket.destroy();
    }
  });
});
