import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { EventHub } from './event-hub.ts';
import type { LiveEvent } from './live-event.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { sitesOf } from '../../plugins/scope.ts';
import { scopeFilter } from './scope-filter.ts';

const HEARTBEAT_MS = 15_000;
/** A client that stops reading is dropped before its backlog grows past this. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** A first connection receives the events of this last span: lists read just before are not left behind. */
const FIRST_CONNECTION_REPLAY_MS = 10_000;

/** Open streams this instance keeps for one user, and for one organization. */
export const MAX_STREAMS_PER_USER = 10;
export const MAX_STREAMS_PER_ORGANIZATION = 200;

/**
 * On every signed-in read, the newest event of the organization known before the answer was
 * built. A page that read its lists before opening its stream resumes from the oldest such
 * position (as Last-Event-ID) instead of asking for the last seconds: nothing between its reads
 * and its stream is missed, and a busy organization no longer makes it reload everything.
 */
export const EVENT_POSITION_HEADER = 'vigie-event-id';

export function stampEventPosition(events: Pick<EventHub, 'lastId'>) {
  return async function stamp(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.method !== 'GET' || !request.user) return;
    const id = events.lastId(request.user.organization.id);
    if (id) reply.header(EVENT_POSITION_HEADER, id);
  };
}

const frame = (event: LiveEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * endpoints.stream.open: Server-Sent Events of the user's organization (reading, device).
 * Authenticated by the bearer header like every API call, so browsers read it with fetch.
 */
export const streamRoutes: FastifyPluginAsync<{ events: EventHub }> = async (app, { events }) => {
  const open = new Set<() => void>();
  const perUser = new Map<string, number>();
  const perOrganization = new Map<string, number>();
  const add = (counts: Map<string, number>, key: string, delta: number) => {
    const next = (counts.get(key) ?? 0) + delta;
    if (next <= 0) counts.delete(key);
    else counts.set(key, next);
  };
  /** The streams of each session, closed when it ends (logout), whichever instance it ended on. */
  const bySession = new Map<string, Set<() => void>>();
  const stopListening = events.subscribeAll((event) => {
    if (event.type !== 'session-ended') return;
    for (const close of [...(bySession.get(event.data.sessionId) ?? [])]) close();
  });
  // Streams never end by themselves: close them first so a graceful shutdown is not held up.
  app.addHook('preClose', async () => {
    stopListening();
    for (const close of open) close();
  });

  app.route({
    ...route(endpoints.stream.open),
    handler: async (request, reply) => {
      const user = currentUser(request);
      const organizationId = user.organization.id;
      const sessionId = request.sessionId;
      // A bounded number of streams: a runaway script or a leaking page cannot exhaust the server.
      if ((perUser.get(user.id) ?? 0) >= MAX_STREAMS_PER_USER) {
        return reply
          .code(429)
          .header('retry-after', '30')
          .send({
            message: `Trop de connexions en direct ouvertes pour ce compte (${MAX_STREAMS_PER_USER} au plus) : fermez un onglet ou un appareil, puis réessayez.`,
          });
      }
      if ((perOrganization.get(organizationId) ?? 0) >= MAX_STREAMS_PER_ORGANIZATION) {
        return reply
          .code(429)
          .header('retry-after', '30')
          .send({
            message: `Trop de connexions en direct ouvertes pour cette organisation (${MAX_STREAMS_PER_ORGANIZATION} au plus). Réessayez dans un instant.`,
          });
      }
      // A member who sees some sites receives theirs only (docs/api.md, Régions et portées).
      const sites = await sitesOf(request);
      const visible = sites === null ? null : scopeFilter(sites, await request.server.scopeDeps.devicesIn(organizationId, sites));
      const framed = (event: LiveEvent) => {
        const shown = visible ? visible(event) : event;
        return shown ? frame(shown) : '';
      };
      add(perUser, user.id, 1);
      add(perOrganization, organizationId, 1);
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
        if (closed || chunk === '') return;
        if (res.writableLength > MAX_BUFFERED_BYTES) return close();
        res.write(chunk);
      };
      const unsubscribe = events.subscribe(organizationId, (event) => send(framed(event)));
      const heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
      const close = () => {
        if (closed) return;
        closed = true;
        add(perUser, user.id, -1);
        add(perOrganization, organizationId, -1);
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(close);
        if (sessionId) {
          const streams = bySession.get(sessionId);
          streams?.delete(close);
          if (streams?.size === 0) bySession.delete(sessionId);
        }
        res.end();
      };
      open.add(close);
      if (sessionId) {
        let streams = bySession.get(sessionId);
        if (!streams) bySession.set(sessionId, (streams = new Set()));
        streams.add(close);
      }
      request.raw.on('close', close);

      send('retry: 3000\n\n');
      const lastEventId = request.headers['last-event-id'];
      const resuming = typeof lastEventId === 'string' && lastEventId.length > 0;
      // Resuming: what the client missed. A first connection: the last seconds, since the page
      // read its lists just before subscribing (events are idempotent on the client). When
      // those events are no longer all known, the client reloads its lists instead.
      const missed = resuming ? events.since(organizationId, lastEventId) : events.recent(organizationId, FIRST_CONNECTION_REPLAY_MS);
      if (missed === null) send('event: resync\ndata: {}\n\n');
      else for (const event of missed) send(framed(event));
      send(': connecté\n\n');
    },
  });
};
