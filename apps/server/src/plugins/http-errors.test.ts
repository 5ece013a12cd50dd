import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKind, type TestApp } from '../test/test-app.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes bytes as they are to the server and reads what comes back until it closes (or a first answer is complete). */
function raw(port: number, request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('utf8');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text)?.[1];
      const start = text.indexOf('\r\n\r\n');
      if (length !== undefined && start >= 0 && Buffer.byteLength(text.slice(start + 4)) >= Number(length)) socket.destroy();
    });
    socket.on('close', done);
    // An answer that keeps the connection open without a length is read for a second at most.
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.write(request);
  });
}

const FRENCH = /[a-zà-ÿ]+ .*[.]$/i;

/** Whatever the HTTP server refuses before any route runs, a client reads `{message}` in French. */
describe(`HTTP errors before a route (${databaseKind})`, () => {
  let t: TestApp;
  let port: number;
  let baseUrl: string;
  // A second server, stopped by a test.
  let stopping: TestApp;
  let stoppingPort: number;
  let stopped: Promise<void> | undefined;

  beforeAll(async () => {
    [t, stopping] = await Promise.all([createTestApp(), createTestApp()]);
    ({ baseUrl } = await t.listen());
    port = Number(new URL(baseUrl).port);
    stoppingPort = Number(new URL((await stopping.listen()).baseUrl).port);
  });
  afterAll(async () => {
    await Promise.all([t.close(), stopped ?? stopping.close()]);
  });

  const expectFrench = (response: RawResponse, status: number, message: RegExp) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json; charset=utf-8/);
    const parsed = JSON.parse(response.body) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['message']);
    expect(parsed['message']).toMatch(message);
    expect(parsed['message']).toMatch(FRENCH);
    expect(Buffer.byteLength(response.body)).toBe(Number(response.headers['content-length']));
  };

  it('answers 431 in French for headers too large, the address included', async () => {
    const header = await raw(port, `GET /api/health HTTP/1.1\r\nHost: vigie\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectFrench(header, 431, /^En-têtes de la requête trop volumineux/);
    const address = await raw(port, `GET /api/sensor?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: vigie\r\n\r\n`);
    expectFrench(address, 431, /^En-têtes de la requête trop volumineux/);
  });

  it('answers 400 in French for a request that is not HTTP, or a header that is malformed', async () => {
    for (const request of [
      'BONJOUR\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: vigie\r\nEn tête: x\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: vigie\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      'POST /api/auth/login HTTP/1.1\r\nHost: vigie\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ]) {
      expectFrench(await raw(port, request), 400, /^Requête HTTP mal formée/);
    }
  });

  it('answers 413 in French for chunk extensions too large', async () => {
    const response = await raw(
      port,
      `POST /api/auth/login HTTP/1.1\r\nHost: vigie\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'a'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    );
    expectFrench(response, 413, /^Requête trop volumineuse/);
  });

  it('answers 414 for a path parameter too long and 400 for a badly encoded address, in French', async () => {
    const long = await fetch(`${baseUrl}/api/sensor/${'a'.repeat(200)}`);
    expect(long.status).toBe(414);
    expect(long.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8/);
    expect(await long.json()).toEqual({ message: expect.stringMatching(/^Adresse trop longue/) as unknown });
    const badlyEncoded = await raw(port, 'GET /api/sensor/%E0%A4%A HTTP/1.1\r\nHost: vigie\r\n\r\n');
    expectFrench(badlyEncoded, 400, /^Adresse mal encodée/);
  });

  it('answers 417 in French for an expectation it cannot meet', async () => {
    const response = await raw(port, 'POST /api/auth/login HTTP/1.1\r\nHost: vigie\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}');
    expectFrench(response, 417, /^Attente « Expect » non prise en charge/);
  });

  it('answers 408 in French when a request is not received in time', async () => {
    // Node checks request deadlines every 30 s: its timeout error is raised here on a real connection.
    const accepted = new Promise<net.Socket>((resolve) => t.app.server.once('connection', resolve));
    const answer = raw(port, 'GET /api/health HTTP/1.1\r\nHost: vigie\r\n');
    const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    t.app.server.emit('clientError', timeout, await accepted);
    expectFrench(await answer, 408, /^La requête a pris trop de temps/);
  });

  it('answers 503 in French to a request that arrives while the server stops, after finishing the one under way', async () => {
    const socket = net.connect(stoppingPort, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    // A request under way (its body not all sent) when the server is told to stop…
    socket.write('POST /api/auth/login HTTP/1.1\r\nHost: vigie\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{');
    await new Promise((resolve) => setTimeout(resolve, 100));
    stopped = stopping.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // …then its end, and a second request on the same connection.
    socket.write('}GET /api/health HTTP/1.1\r\nHost: vigie\r\n\r\n');
    await ended;
    await stopped;
    const answers = Buffer.concat(chunks)
      .toString('utf8')
      .split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 400 /);
    const [head = '', body = ''] = answers[1]?.split('\r\n\r\n') ?? [];
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8/i);
    expect(JSON.parse(body)).toEqual({ message: 'Le serveur s’arrête : réessayez dans un instant.' });
  });

  it('still serves the next connection normally', async () => {
    const response = await fetch(`${baseUrl}/api/health`);
    expect(response.status).toBe(200);
  });
});
