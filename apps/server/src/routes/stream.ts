import type { FastifyPluginAsync } from 'fastify';
import type { EventHub } from '../modules/events/event-hub.ts';
import type { LiveEvent } from '../modules/events/live-event.ts';
import { currentUser } from '../plugins/authenticate.ts';

const HEARTBEAT_MS = 15_000;
/** A client that stops reading is dropped before its backlog grows past this. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** A first connection receives the events of this last span: lists read just before are not left behind. */
const FIRST_CONNECTION_REPLAY_MS = 10_000;

const frame = (event: LiveEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * GET /api/stream: Server-Sent Events of the user's organization (reading, device).
 * Authenticated by the bearer header like every API call, so browsers read it with fetch.
 */
export const streamRoutes: FastifyPluginAsync<{ events: EventHub }> = async (app, { events }) => {
  const open = new Set<() => void>();
  // Streams never end by themselves: close them first so a graceful shutdown is not held up.
  app.addHook('preClose', async () => {
    for (const close of open) close();
  });

  app.get('/stream', async (request, reply) => {
    const organizationId = currentUser(request).organization.id;
    const res = reply.raw;
    reply.hijack();
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.socket?.setNoDelay(true);

    let closed = false;
    const send = (chunk: string) => {
      if (closed) return;
      if (res.writableLength > MAX_BUFFERED_BYTES) return close();
      res.write(chunk);
    };
    const unsubscribe = events.subscribe(organizationId, (event) => send(frame(event)));
    const heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(close);
      res.end();
    };
    open.add(close);
    request.raw.on('close', close);

    send('retry: 3000\n\n');
    const lastEventId = request.headers['last-event-id'];
    const resuming = typeof lastEventId === 'string' && lastEventId.length > 0;
    // Resuming: what the client missed. A first connection: the last seconds, since the page
    // read its lists just before subscribing (events are idempotent on the client). When
    // those events are no longer all known, the client reloads its lists instead.
    const missed = resuming ? events.since(organizationId, lastEventId) : events.recent(organizationId, FIRST_CONNECTION_REPLAY_MS);
    if (missed === null) send('event: resync\ndata: {}\n\n');
    else for (const event of missed) send(frame(event));
    send(': connecté\n\n');
  });
};
