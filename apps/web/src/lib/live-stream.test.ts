import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '@/lib/api-client';
import { openLiveStream } from './live-stream';
import type { SseMessage } from './sse-parser';

/** A streamed response whose body the test writes to and ends. */
function streamedResponse() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('openLiveStream', () => {
  beforeEach(() => {
    vi.useRealTimers();
    setAccessToken('tok');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    setAccessToken(null);
  });

  it('sends the bearer token, delivers events and reconnects after a drop with Last-Event-ID', async () => {
    const first = streamedResponse();
    const second = streamedResponse();
    const calls: RequestInit[] = [];
    const responses = [first.response, second.response];
    const fetchImpl = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      calls.push(init ?? {});
      return responses.shift() ?? new Response(null, { status: 503 });
    });
    vi.stubGlobal('fetch', fetchImpl);
    const messages: SseMessage[] = [];
    const delays: number[] = [];
    const stop = openLiveStream({
      baseUrl: '/api',
      onMessage: (message) => messages.push(message),
      backoff: (attempt) => {
        delays.push(attempt);
        return 0;
      },
    });
    await tick();
    expect(fetchImpl).toHaveBeenCalledWith('/api/stream', expect.anything());
    expect((calls[0]?.headers as Record<string, string>)['Authorization']).toBe('Bearer tok');
    expect((calls[0]?.headers as Record<string, string>)['Last-Event-ID']).toBeUndefined();

    first.write('id: 41\nevent: reading\ndata: {"n":1}\n\n');
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    first.end();

    await vi.waitFor(() => expect(fetchImpl).toHaveBeenCalledTimes(2));
    expect((calls[1]?.headers as Record<string, string>)['Last-Event-ID']).toBe('41');
    expect(delays).toEqual([1]);
    second.write('id: 42\nevent: device\ndata: {"n":2}\n\n');
    await vi.waitFor(() => expect(messages.map((m) => m.id)).toEqual(['41', '42']));
    stop();
  });

  it('backs off longer after each failed attempt and stops for good when told', async () => {
    const fetchImpl = vi.fn(async () => new Response('down', { status: 503 }));
    vi.stubGlobal('fetch', fetchImpl);
    const attempts: number[] = [];
    const stop = openLiveStream({
      onMessage: () => undefined,
      backoff: (attempt) => {
        attempts.push(attempt);
        return 0;
      },
    });
    await vi.waitFor(() => expect(attempts.length).toBeGreaterThanOrEqual(3));
    expect(attempts.slice(0, 3)).toEqual([1, 2, 3]);
    stop();
    const count = fetchImpl.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchImpl.mock.calls.length).toBeLessThanOrEqual(count + 1);
  });

  it('stops without retrying when the token is refused', async () => {
    const fetchImpl = vi.fn(async () => new Response('{"message":"Session expirée"}', { status: 401 }));
    vi.stubGlobal('fetch', fetchImpl);
    const onUnauthorized = vi.fn();
    openLiveStream({
      onMessage: () => undefined,
      onUnauthorized,
      backoff: () => 0,
    });
    await vi.waitFor(() => expect(onUnauthorized).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('reconnects at once when the browser is back online, instead of waiting out the backoff', async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchImpl);
    const stop = openLiveStream({ onMessage: () => undefined, backoff: () => 60_000 });
    await vi.waitFor(() => expect(fetchImpl).toHaveBeenCalledTimes(1));
    await tick();
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(fetchImpl).toHaveBeenCalledTimes(2));
    stop();
    window.dispatchEvent(new Event('online'));
    await tick();
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });
});
