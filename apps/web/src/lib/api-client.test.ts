// @vitest-environment node
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, apiBlob, apiRequest, setAccessToken, setUnauthorizedHandler } from './api-client';
import { OFFLINE_HEADER, offlineStatus } from './offline-status';

type Received = { method?: string; url?: string; headers: IncomingMessage['headers']; body: string };
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let received: Received[];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  setAccessToken(null);
  received = [];
  handler = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
});

function reply(status: number, body: string, contentType = 'application/json', statusText?: string): Handler {
  return (_req, res) => {
    if (statusText) res.statusMessage = statusText;
    res.writeHead(status, body ? { 'Content-Type': contentType } : {});
    res.end(body);
  };
}

async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('apiRequest', () => {
  it('sends JSON with the bearer token and resolves with the parsed body', async () => {
    handler = reply(201, JSON.stringify({ emitter: { id: 'e1', name: 'Vitrine' } }));

    setAccessToken('tok-123');
    const result = await apiRequest('/emitter', { method: 'POST', body: { name: 'Vitrine' }, baseUrl });

    expect(result).toEqual({ emitter: { id: 'e1', name: 'Vitrine' } });
    expect(received[0]).toMatchObject({ method: 'POST', url: '/api/emitter', body: '{"name":"Vitrine"}' });
    expect(received[0]?.headers['content-type']).toBe('application/json');
    expect(received[0]?.headers['accept']).toBe('application/json');
    expect(received[0]?.headers['authorization']).toBe('Bearer tok-123');
  });

  it('sends no Authorization header when no token is set', async () => {
    await apiRequest('/health', { baseUrl });
    expect(received[0]?.headers['authorization']).toBeUndefined();
  });

  it('treats a 204 as a success without a body', async () => {
    handler = reply(204, '');
    setAccessToken('t');
    await expect(apiRequest('/emitter/e1', { method: 'DELETE', baseUrl })).resolves.toBeUndefined();
    expect(received[0]).toMatchObject({ method: 'DELETE', url: '/api/emitter/e1', body: '' });
    // An empty body is not declared as JSON.
    expect(received[0]?.headers['content-type']).toBeUndefined();
  });

  it('uses the message of a JSON error body', async () => {
    handler = reply(404, JSON.stringify({ message: 'Émetteur introuvable.' }));
    const error = await errorOf(apiRequest('/emitter/x', { baseUrl }));
    expect(error.message).toBe('Émetteur introuvable.');
    expect(error.status).toBe(404);
  });

  it('uses the raw body text when the error body is not JSON', async () => {
    handler = reply(502, 'Passerelle indisponible', 'text/plain');
    const error = await errorOf(apiRequest('/emitter', { baseUrl }));
    expect(error.message).toBe('Passerelle indisponible');
  });

  it('falls back to the status line when the error body is empty', async () => {
    handler = reply(503, '', 'text/plain', 'Service Unavailable');
    const error = await errorOf(apiRequest('/emitter', { baseUrl }));
    expect(error.message).toBe('HTTP 503: Service Unavailable');
  });

  it('never shows raw JSON: a JSON error without message falls back to the status line', async () => {
    handler = reply(500, JSON.stringify({ error: 'boom' }), 'application/json', 'Internal Server Error');
    const error = await errorOf(apiRequest('/emitter', { baseUrl }));
    expect(error.message).toBe('HTTP 500: Internal Server Error');
  });

  it('reports a network failure with the error message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await errorOf(apiRequest('/emitter', { baseUrl: `http://127.0.0.1:${port}/api` }));
    expect(error.status).toBe(0);
    expect(error.message).toBe('fetch failed');
  });

  it("reports 'Network error' when the failure carries no message", async () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new TypeError(''));
    try {
      const error = await errorOf(apiRequest('/emitter', { baseUrl }));
      expect(error.message).toBe('Network error');
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe('the session the client carries', () => {
  it('ends the session when the server refuses the token it sent', async () => {
    handler = reply(401, JSON.stringify({ message: 'Session expirée, reconnectez-vous.' }));
    let ended = 0;
    setUnauthorizedHandler(() => (ended += 1));
    setAccessToken('expired');
    try {
      const error = await errorOf(apiRequest('/emitter', { baseUrl }));
      expect(error.message).toBe('Session expirée, reconnectez-vous.');
      expect(ended).toBe(1);
    } finally {
      setUnauthorizedHandler(null);
    }
  });

  it('leaves a 401 without a token (wrong credentials) to the caller', async () => {
    handler = reply(401, JSON.stringify({ message: 'Identifiants invalides' }));
    let ended = 0;
    setUnauthorizedHandler(() => (ended += 1));
    try {
      await errorOf(apiRequest('/auth/login', { method: 'POST', body: {}, baseUrl }));
      expect(ended).toBe(0);
    } finally {
      setUnauthorizedHandler(null);
    }
  });

  it('downloads a file with the token and the proposed name', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="mesures.csv"' });
      res.end('a;b\n1;2\n');
    };
    setAccessToken('tok-csv');
    const { blob, disposition } = await apiBlob('/sensor/s1/readings.csv', { accept: 'text/csv', baseUrl });
    expect(await blob.text()).toBe('a;b\n1;2\n');
    expect(disposition).toBe('attachment; filename="mesures.csv"');
    expect(received[0]?.headers['authorization']).toBe('Bearer tok-csv');
    expect(received[0]?.headers['accept']).toBe('text/csv');
  });

  it('sends nothing once the token is cleared (sign-out)', async () => {
    setAccessToken('tok');
    setAccessToken(null);
    await apiRequest('/health', { baseUrl });
    expect(received[0]?.headers['authorization']).toBeUndefined();
  });
});

describe('answers kept by the service worker', () => {
  it('tell the page it works offline, with the time they were stored, until the server answers again', async () => {
    const unsubscribe = offlineStatus.subscribe(() => undefined);
    handler = (_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json', [OFFLINE_HEADER]: '2026-03-12T13:02:00.000Z' }).end('{}');
    await apiRequest('/sensor', { baseUrl });
    expect(offlineStatus.getSnapshot()).toEqual({ offline: true, valuesAt: Date.parse('2026-03-12T13:02:00.000Z') });
    handler = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    await apiRequest('/sensor', { baseUrl });
    expect(offlineStatus.getSnapshot().offline).toBe(false);
    unsubscribe();
  });
});
