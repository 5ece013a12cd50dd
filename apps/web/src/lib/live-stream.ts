import { endpoints } from '@vigie/contract/routes';
import { apiFetch, endpointPath } from '@/lib/api-client';
import { offlineStatus } from './offline-status';
import { SseParser, type SseMessage } from './sse-parser';

export type LiveStreamOptions = {
  onMessage: (message: SseMessage) => void;
  /** Called with `true` once the stream answers, `false` when it drops. */
  onConnection?: (connected: boolean) => void;
  /** Called when the server refuses the token (401): the session is over, do not retry. */
  onUnauthorized?: () => void;
  /** Resume after this event id (kept across page changes by the caller). */
  lastEventId?: string | null;
  onLastEventId?: (id: string) => void;
  baseUrl?: string;
  /** Delay before reconnection attempt `attempt` (1, 2, …). */
  backoff?: (attempt: number, serverRetryMs: number | null) => number;
  /** Silence after which the connection is deemed dead (the server pings every 15 s). */
  idleTimeoutMs?: number;
};

/** 1 s, 2 s, 4 s… up to 30 s, with jitter so that many tabs do not come back in step. */
export function defaultBackoff(attempt: number, serverRetryMs: number | null): number {
  const base = Math.min(30_000, Math.max(serverRetryMs ?? 1000, 1000 * 2 ** (attempt - 1)));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Reads endpoints.stream.open through the API client, so the token goes in the Authorization header
 * (EventSource cannot send one) and reconnects after a drop with `Last-Event-ID`, backing off.
 * Returns a function that stops it for good.
 */
export function openLiveStream(options: LiveStreamOptions): () => void {
  const { onMessage, onConnection, onUnauthorized, onLastEventId, baseUrl, backoff = defaultBackoff, idleTimeoutMs = 45_000 } = options;
  let lastEventId = options.lastEventId ?? null;
  let stopped = false;
  let attempt = 0;
  let serverRetryMs: number | null = null;
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const connect = async () => {
    controller = new AbortController();
    const current = controller;
    let idle: ReturnType<typeof setTimeout> | null = null;
    const armIdle = () => {
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => current.abort(), idleTimeoutMs);
    };
    let connected = false;
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      armIdle();
      const response = await apiFetch(endpointPath(endpoints.stream.open), { headers, signal: current.signal, cache: 'no-store', baseUrl });
      if (response.status === 401) {
        stopped = true;
        onUnauthorized?.();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      connected = true;
      attempt = 0;
      onConnection?.(true);
      const parser = new SseParser(
        (message) => {
          if (message.id) {
            lastEventId = message.id;
            onLastEventId?.(message.id);
          }
          onMessage(message);
        },
        (ms) => (serverRetryMs = ms),
      );
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || stopped) break;
        armIdle();
        offlineStatus.noteHeard();
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // A drop, a timeout or a refusal: reconnect below unless stopped.
    } finally {
      if (idle) clearTimeout(idle);
      if (connected) onConnection?.(false);
    }
    if (stopped) return;
    attempt += 1;
    timer = setTimeout(
      () => {
        timer = null;
        void connect();
      },
      backoff(attempt, serverRetryMs),
    );
  };

  // Back online while waiting to reconnect: no need to wait out the backoff.
  const onOnline = () => {
    if (stopped || !timer) return;
    clearTimeout(timer);
    timer = null;
    void connect();
  };
  if (typeof window !== 'undefined') window.addEventListener('online', onOnline);

  void connect();
  return () => {
    stopped = true;
    if (typeof window !== 'undefined') window.removeEventListener('online', onOnline);
    if (timer) clearTimeout(timer);
    controller?.abort();
  };
}
