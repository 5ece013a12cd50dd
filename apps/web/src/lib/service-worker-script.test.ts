// @vitest-environment node
/**
 * public/sw.js, run as a browser runs it but with a fake network and a fake Cache Storage: which
 * requests it answers, and that a session's kept answers never reach another account or session.
 */
import { readFileSync } from 'node:fs';
import { endpoints } from '@vigie/contract/routes';
import { describe, expect, it, vi } from 'vitest';

const ORIGIN = 'https://vigie.example';
const source = readFileSync(new URL('../../public/sw.js', import.meta.url), 'utf8');

type FakeRequest = { url: string; method: string; mode: string; headers: Headers };
type Listener = (event: unknown) => void;
type Network = (request: FakeRequest) => Promise<Response>;

class FakeCache {
  readonly entries = new Map<string, Response>();

  constructor(private readonly network: () => Network) {}

  static keyOf(key: string | FakeRequest): string {
    return new URL(typeof key === 'string' ? key : key.url, ORIGIN).href;
  }

  async put(key: string | FakeRequest, response: Response): Promise<void> {
    this.entries.set(FakeCache.keyOf(key), response);
  }

  async add(key: string | FakeRequest): Promise<void> {
    const request = typeof key === 'string' ? { url: FakeCache.keyOf(key), method: 'GET', mode: 'cors', headers: new Headers() } : key;
    const response = await this.network()(request);
    if (!response.ok) throw new TypeError('Bad status');
    await this.put(request, response);
  }

  async match(key: string | FakeRequest): Promise<Response | undefined> {
    return this.entries.get(FakeCache.keyOf(key))?.clone();
  }
}

class FakeCacheStorage {
  readonly caches = new Map<string, FakeCache>();

  constructor(private readonly network: () => Network) {}

  async keys(): Promise<string[]> {
    return [...this.caches.keys()];
  }

  async open(name: string): Promise<FakeCache> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new FakeCache(this.network);
      this.caches.set(name, cache);
    }
    return cache;
  }

  async delete(name: string): Promise<boolean> {
    return this.caches.delete(name);
  }

  async match(key: string | FakeRequest, options: { cacheName?: string } = {}): Promise<Response | undefined> {
    if (!options.cacheName) throw new Error('The worker always names the cache it reads.');
    return this.caches.get(options.cacheName)?.match(key);
  }
}

/** An unsigned token with these claims: the worker only decodes it. */
function token(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`;
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const alice = token({ sub: 'user-a', sid: 'session-1', exp: inAnHour() });
const aliceElsewhere = token({ sub: 'user-a', sid: 'session-2', exp: inAnHour() });
const bob = token({ sub: 'user-b', sid: 'session-9', exp: inAnHour() });

function request(path: string, options: { method?: string; mode?: string; token?: string; origin?: string } = {}): FakeRequest {
  const headers = new Headers();
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  return { url: `${options.origin ?? ORIGIN}${path}`, method: options.method ?? 'GET', mode: options.mode ?? 'cors', headers };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Same-origin answers are `basic` in a browser; Node's are `default`. */
function basic(response: Response): Response {
  Object.defineProperty(response, 'type', { value: 'basic' });
  return response;
}

type Worker = {
  sessionOfToken: (token: unknown) => { cache: string; expiresAt: number } | null;
  routeOf: (request: FakeRequest) => string | null;
};

function loadWorker(assets: string[] = []) {
  const listeners = new Map<string, Listener>();
  let network: Network = async () => basic(json({}));
  const caches = new FakeCacheStorage(() => network);
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: vi.fn(),
    clients: { claim: vi.fn(async () => undefined) },
    registration: {},
  };
  const built = source.replace('[/* __VIGIE_ASSETS__ */]', JSON.stringify(assets));
  // A worker's relative addresses are read against its own.
  class WorkerRequest extends Request {
    constructor(input: string, init?: RequestInit) {
      super(new URL(input, ORIGIN), init);
    }
  }
  const run = new Function('self', 'caches', 'fetch', 'Request', `${built}\nreturn { sessionOfToken, routeOf };`);
  const worker = run(self, caches, (input: FakeRequest) => network(input), WorkerRequest) as Worker;

  /** Dispatches an extendable event; resolves once all the work it was given is done. */
  const dispatch = async (type: string, fields: Record<string, unknown>) => {
    const pending: Promise<unknown>[] = [];
    let answer: Promise<Response> | null = null;
    listeners.get(type)?.({
      ...fields,
      waitUntil: (work: Promise<unknown>) => pending.push(work),
      respondWith: (response: Promise<Response>) => (answer = response),
    });
    const response = answer ? await (answer as Promise<Response>) : null;
    // Work started while answering (storing a copy) is awaited too.
    for (let index = 0; index < pending.length; index += 1) await pending[index];
    return response;
  };

  return {
    ...worker,
    caches,
    setNetwork: (next: Network) => (network = next),
    goOffline: () =>
      (network = async () => {
        throw new TypeError('Failed to fetch');
      }),
    fetch: (fake: FakeRequest) => dispatch('fetch', { request: fake }),
    message: (data: unknown) => dispatch('message', { data }),
    install: () => dispatch('install', {}),
    activate: () => dispatch('activate', {}),
  };
}

describe('the cache of a session, from its token', () => {
  const { sessionOfToken } = loadWorker();

  it('is named after the user and the session the token names, and knows when the token ends', () => {
    const exp = inAnHour();
    expect(sessionOfToken(token({ sub: 'user-a', sid: 'session-1', exp }))).toEqual({
      cache: 'vigie-api-v1:user-a:session-1',
      expiresAt: exp * 1000,
    });
  });

  it('differs for another session of the same user, and for another user', () => {
    const names = [alice, aliceElsewhere, bob].map((value) => sessionOfToken(value)?.cache);
    expect(new Set(names).size).toBe(3);
  });

  it('cannot be confused by identifiers containing the separator', () => {
    const first = sessionOfToken(token({ sub: 'a:b', sid: 'c', exp: inAnHour() }))?.cache;
    const second = sessionOfToken(token({ sub: 'a', sid: 'b:c', exp: inAnHour() }))?.cache;
    expect(first).not.toBe(second);
  });

  it('reads claims written in UTF-8 and base64url', () => {
    expect(sessionOfToken(token({ sub: 'élodie/é?', sid: 'sé~ssion', exp: inAnHour() }))?.cache).toBe(
      `vigie-api-v1:${encodeURIComponent('élodie/é?')}:${encodeURIComponent('sé~ssion')}`,
    );
  });

  it('is none for a token without user, session or end, or that is no token', () => {
    expect(sessionOfToken(token({ sid: 'session-1', exp: inAnHour() }))).toBeNull();
    expect(sessionOfToken(token({ sub: 'user-a', exp: inAnHour() }))).toBeNull();
    expect(sessionOfToken(token({ sub: 'user-a', sid: 'session-1' }))).toBeNull();
    expect(sessionOfToken(token({ sub: 42, sid: 'session-1', exp: inAnHour() }))).toBeNull();
    expect(sessionOfToken('not-a-token')).toBeNull();
    expect(sessionOfToken('a.%%%.c')).toBeNull();
    expect(sessionOfToken(undefined)).toBeNull();
  });
});

describe('what the worker answers', () => {
  const { routeOf } = loadWorker();

  it('keeps only the dashboard’s reads of the API, with any query', () => {
    // The worker is served as written and cannot import the catalogue: its paths are held to it here.
    const reads = [
      endpoints.user.me,
      endpoints.sites.list,
      endpoints.sensor.list,
      endpoints.emitter.list,
      endpoints.alerts.list,
      endpoints.insights.watch,
    ];
    for (const read of reads) {
      expect(read.method).toBe('GET');
      expect(routeOf(request(read.path)), read.path).toBe('read');
      expect(routeOf(request(`${read.path}?status=active`)), read.path).toBe('read');
    }
  });

  it('leaves writes, the live stream, other reads and other origins alone', () => {
    expect(routeOf(request('/api/sensor', { method: 'POST' }))).toBeNull();
    expect(routeOf(request('/api/user/me', { method: 'HEAD' }))).toBeNull();
    expect(routeOf(request('/api/stream'))).toBeNull();
    expect(routeOf(request('/api/sensor/42'))).toBeNull();
    expect(routeOf(request('/api/sensor/42/readings.csv'))).toBeNull();
    expect(routeOf(request('/api/audit'))).toBeNull();
    expect(routeOf(request('/api'))).toBeNull();
    expect(routeOf(request('/api/sensor', { origin: 'https://ailleurs.example' }))).toBeNull();
    expect(routeOf(request('/assets/index-abc.js', { origin: 'https://ailleurs.example' }))).toBeNull();
  });

  it('answers pages, the build’s files and the shell’s icons', () => {
    expect(routeOf(request('/dashboard/alertes', { mode: 'navigate' }))).toBe('page');
    expect(routeOf(request('/', { mode: 'navigate' }))).toBe('page');
    expect(routeOf(request('/api/openapi.json', { mode: 'navigate' }))).toBeNull();
    expect(routeOf(request('/rapport.pdf', { mode: 'navigate' }))).toBeNull();
    expect(routeOf(request('/assets/index-abc.js'))).toBe('asset');
    expect(routeOf(request('/favicon.svg'))).toBe('shell-file');
    expect(routeOf(request('/manifest.webmanifest'))).toBe('shell-file');
    expect(routeOf(request('/sw.js'))).toBeNull();
  });
});

describe('the last answers, offline', () => {
  it('come from the network while it answers, and are kept for the session', async () => {
    const worker = loadWorker();
    worker.setNetwork(async () => basic(json({ sensors: [{ id: 's1' }] })));
    const online = await worker.fetch(request('/api/sensor', { token: alice }));
    expect(await online?.json()).toEqual({ sensors: [{ id: 's1' }] });
    expect(online?.headers.has('x-vigie-offline')).toBe(false);
    expect([...worker.caches.caches.keys()]).toEqual(['vigie-api-v1:user-a:session-1']);
  });

  it('are given back offline to the same session only, marked with when they were stored', async () => {
    const worker = loadWorker();
    worker.setNetwork(async () => basic(json({ sensors: [{ id: 's1', latest: { temperature: { value: 3.4 } } }] })));
    const before = Date.now();
    await worker.fetch(request('/api/sensor', { token: alice }));
    worker.goOffline();

    const offline = await worker.fetch(request('/api/sensor', { token: alice }));
    expect(offline?.status).toBe(200);
    expect(await offline?.json()).toEqual({ sensors: [{ id: 's1', latest: { temperature: { value: 3.4 } } }] });
    const storedAt = Date.parse(offline?.headers.get('x-vigie-offline') ?? '');
    expect(storedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(storedAt).toBeLessThanOrEqual(Date.now());
    expect(offline?.headers.has('x-vigie-stored-at')).toBe(false);

    for (const other of [bob, aliceElsewhere, undefined]) {
      const refused = await worker.fetch(request('/api/sensor', { token: other }));
      expect(refused?.status).toBe(503);
      expect(await refused?.json()).toEqual({ message: 'Hors connexion.' });
    }
    // Another read than the one kept: nothing either.
    expect((await worker.fetch(request('/api/emitter', { token: alice })))?.status).toBe(503);
  });

  it('are not given back once the token has expired', async () => {
    const worker = loadWorker();
    const ending = token({ sub: 'user-a', sid: 'session-1', exp: Math.floor(Date.now() / 1000) + 1 });
    await worker.fetch(request('/api/sites', { token: ending }));
    worker.goOffline();
    vi.useFakeTimers({ now: Date.now() + 5_000, toFake: ['Date'] });
    try {
      expect((await worker.fetch(request('/api/sites', { token: ending })))?.status).toBe(503);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stand in for a proxy that cannot reach the server', async () => {
    const worker = loadWorker();
    await worker.fetch(request('/api/sites', { token: alice }));
    worker.setNetwork(async () => basic(json({ message: 'Bad gateway' }, 502)));
    const answer = await worker.fetch(request('/api/sites', { token: alice }));
    expect(answer?.status).toBe(200);
    expect(answer?.headers.has('x-vigie-offline')).toBe(true);
  });

  it('keep only good answers, for a token naming a session', async () => {
    const worker = loadWorker();
    worker.setNetwork(async () => basic(json({ message: 'Session expirée' }, 401)));
    await worker.fetch(request('/api/sensor', { token: alice }));
    worker.setNetwork(async () => basic(json({ sensors: [] })));
    await worker.fetch(request('/api/sensor'));
    await worker.fetch(request('/api/sensor', { token: token({ sub: 'user-a', exp: inAnHour() }) }));
    expect(worker.caches.caches.size).toBe(0);
  });

  it('of one session only: another session storing its own deletes them', async () => {
    const worker = loadWorker();
    await worker.fetch(request('/api/sensor', { token: alice }));
    await worker.fetch(request('/api/sensor', { token: bob }));
    expect([...worker.caches.caches.keys()]).toEqual(['vigie-api-v1:user-b:session-9']);
  });

  it('are deleted at sign-out, and an answer still on its way is not stored', async () => {
    const worker = loadWorker();
    await worker.fetch(request('/api/sensor', { token: alice }));
    await worker.message({ type: 'vigie:forget-session', token: alice });
    expect(worker.caches.caches.size).toBe(0);
    await worker.fetch(request('/api/sites', { token: alice }));
    expect(worker.caches.caches.size).toBe(0);
    worker.goOffline();
    expect((await worker.fetch(request('/api/sites', { token: alice })))?.status).toBe(503);
  });

  it('leave the other requests to the network untouched', async () => {
    const worker = loadWorker();
    const network = vi.fn(async () => basic(json({})));
    worker.setNetwork(network);
    expect(await worker.fetch(request('/api/sensor', { method: 'POST', token: alice }))).toBeNull();
    expect(await worker.fetch(request('/api/stream', { token: alice }))).toBeNull();
    expect(network).not.toHaveBeenCalled();
    expect(worker.caches.caches.size).toBe(0);
  });
});

describe('the shell, offline', () => {
  it('is kept at install with the build’s files, and answers every page offline', async () => {
    const worker = loadWorker(['/assets/index-abc.js', '/assets/index-def.css']);
    const served: string[] = [];
    worker.setNetwork(async (fake) => {
      served.push(new URL(fake.url).pathname);
      const html = new URL(fake.url).pathname === '/';
      return basic(
        new Response(html ? '<!doctype html><title>Vigie</title>' : 'file', {
          headers: { 'content-type': html ? 'text/html' : 'text/javascript' },
        }),
      );
    });
    await worker.install();
    await worker.activate();
    expect(served).toEqual(expect.arrayContaining(['/', '/favicon.svg', '/assets/index-abc.js', '/assets/index-def.css']));
    const [shellCache] = [...worker.caches.caches.keys()];
    expect(shellCache).toMatch(/^vigie-shell-/);

    worker.goOffline();
    const page = await worker.fetch(request('/dashboard/capteurs/42', { mode: 'navigate' }));
    expect(await page?.text()).toContain('<title>Vigie</title>');
    expect(await (await worker.fetch(request('/assets/index-abc.js')))?.text()).toBe('file');
  });

  it('serves the build’s files from the cache first, keeping those fetched', async () => {
    const worker = loadWorker();
    const network = vi.fn(async () => basic(new Response('chunk', { headers: { 'content-type': 'text/javascript' } })));
    worker.setNetwork(network);
    await worker.fetch(request('/assets/alerts-xyz.js'));
    await worker.fetch(request('/assets/alerts-xyz.js'));
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('drops another build’s shell and an older format of answers when it takes over', async () => {
    const worker = loadWorker();
    await worker.caches.open('vigie-shell-old');
    await worker.caches.open('vigie-api-v0:user-a:session-1');
    await worker.caches.open('vigie-api-v1:user-a:session-1');
    await worker.caches.open('autre-chose');
    await worker.activate();
    expect([...worker.caches.caches.keys()].sort()).toEqual(['autre-chose', 'vigie-api-v1:user-a:session-1']);
  });
});
