import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/render';
import { ApiError, setAccessToken, setUnauthorizedHandler } from './api-client';
import { discardEarlyFetches, EARLY_FETCH_MAX_AGE_MS, earlyInitialData, earlyOr, startEarlyFetch, takeArrivedEarly } from './early-fetch';

type Call = { url: string; token: string | null; signal: AbortSignal | undefined };
let calls: Call[];
/** What the server answers. */
let answer: (url: string) => Promise<Response>;

beforeEach(() => {
  calls = [];
  answer = async () => jsonResponse(200, { sites: ['early'] });
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    const token = new Headers(init?.headers).get('Authorization')?.replace(/^Bearer /, '') ?? null;
    calls.push({ url, token, signal: init?.signal ?? undefined });
    return answer(url);
  });
  setAccessToken(null);
});

afterEach(() => {
  discardEarlyFetches();
  setAccessToken(null);
  setUnauthorizedHandler(null);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The call as the screen makes it once the session is there: counted, distinct from the early one. */
const again = vi.fn(async () => ({ sites: ['again'] }));
beforeEach(() => again.mockClear());

/** Lets pending promise callbacks (the early answer's arrival) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('early fetch', () => {
  it('leaves before the session is set, with the stored token, and serves that session once', async () => {
    startEarlyFetch('/overview', 'stored');
    expect(calls).toEqual([{ url: '/api/overview', token: 'stored', signal: expect.any(AbortSignal) }]);

    // The session check accepted the token: the screen's call takes the early answer.
    setAccessToken('stored');
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['early'] });
    expect(again).not.toHaveBeenCalled();
    // Given once: the next reading (a refresh) asks the server.
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['again'] });
    expect(calls).toHaveLength(1);
  });

  it('starts one read per path and token', () => {
    startEarlyFetch('/overview', 'stored');
    startEarlyFetch('/overview', 'stored');
    startEarlyFetch('/regions', 'stored');
    expect(calls.map((call) => call.url)).toEqual(['/api/overview', '/api/regions']);
  });

  it('never gives an answer to another token, and stops the read', async () => {
    let release: () => void = () => undefined;
    answer = () => new Promise((resolve) => (release = () => resolve(jsonResponse(200, { sites: ['early'] }))));
    startEarlyFetch('/overview', 'first-account');
    setAccessToken('second-account');
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['again'] });
    expect(calls[0]?.signal?.aborted).toBe(true);
    release();
    // Nothing is left for the first token either.
    setAccessToken('first-account');
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['again'] });
  });

  it('gives nothing when signed out, nor after a sign-out', async () => {
    startEarlyFetch('/overview', 'stored');
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['again'] });

    startEarlyFetch('/overview', 'stored');
    discardEarlyFetches();
    expect(calls[1]?.signal?.aborted).toBe(true);
    setAccessToken('stored');
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['again'] });
  });

  it('falls back to the usual call when the early read fails', async () => {
    answer = async () => jsonResponse(500, { message: 'Panne' });
    startEarlyFetch('/overview', 'stored');
    setAccessToken('stored');
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['again'] });

    answer = async () => {
      throw new TypeError('Failed to fetch');
    };
    startEarlyFetch('/overview', 'stored');
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['again'] });
    expect(again).toHaveBeenCalledTimes(2);
  });

  it('leaves a refused token to the session check: no sign-out from an early read', async () => {
    const unauthorized = vi.fn();
    setUnauthorizedHandler(unauthorized);
    answer = async () => jsonResponse(401, { message: 'Session expirée' });
    startEarlyFetch('/overview', 'stale');
    setAccessToken('stale');
    const failing = vi.fn(async () => {
      throw new ApiError('Session expirée', 401);
    });
    await expect(earlyOr('/overview', failing)).rejects.toThrow('Session expirée');
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('does not serve an answer older than the queries would keep', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    startEarlyFetch('/overview', 'stored');
    setAccessToken('stored');
    vi.setSystemTime(Date.now() + EARLY_FETCH_MAX_AGE_MS + 1);
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['again'] });
  });

  it('hands over an answer already in, with when it arrived, for a first render; not one under way', async () => {
    let release: () => void = () => undefined;
    answer = () => new Promise((resolve) => (release = () => resolve(jsonResponse(200, { sites: ['early'] }))));
    startEarlyFetch('/overview', 'stored');
    setAccessToken('stored');
    expect(takeArrivedEarly('/overview')).toBeUndefined();

    const before = Date.now();
    release();
    await settle();
    const taken = takeArrivedEarly('/overview');
    expect(taken).toEqual({ data: { sites: ['early'] }, at: expect.any(Number) });
    expect(taken?.at).toBeGreaterThanOrEqual(before);
    expect(takeArrivedEarly('/overview')).toBeUndefined();
    // Taken: the query's own call goes to the server.
    await expect(earlyOr('/overview', again)).resolves.toEqual({ sites: ['again'] });
  });

  it('leaves a read still under way to the query call, which waits for it', async () => {
    let release: () => void = () => undefined;
    answer = () => new Promise((resolve) => (release = () => resolve(jsonResponse(200, { sites: ['early'] }))));
    startEarlyFetch('/overview', 'stored');
    setAccessToken('stored');
    expect(takeArrivedEarly('/overview')).toBeUndefined();
    const taken = earlyOr('/overview', again);
    release();
    await expect(taken).resolves.toEqual({ sites: ['early'] });
    expect(again).not.toHaveBeenCalled();
  });

  it('shapes the initial data of a query, and gives none for a malformed answer or before the user is known', async () => {
    const sitesOf = (data: unknown) => {
      const sites = (data as { sites?: unknown }).sites;
      if (!Array.isArray(sites)) throw new Error('Error loading data');
      return sites as string[];
    };
    setAccessToken('stored');

    startEarlyFetch('/overview', 'stored');
    await settle();
    expect(earlyInitialData('/overview', sitesOf, false).initialData()).toBeUndefined();
    const options = earlyInitialData('/overview', sitesOf);
    expect(options.initialData()).toEqual(['early']);
    expect(options.initialDataUpdatedAt()).toEqual(expect.any(Number));

    answer = async () => jsonResponse(200, { unexpected: true });
    startEarlyFetch('/overview', 'stored');
    await settle();
    const malformed = earlyInitialData('/overview', sitesOf);
    expect(malformed.initialData()).toBeUndefined();
    expect(malformed.initialDataUpdatedAt()).toBeUndefined();
  });
});
