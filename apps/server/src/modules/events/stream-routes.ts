import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { EventHub } from './event-hub.ts';
import type { LiveEvent } from './live-event.ts';
import { MESSAGES, unauthorized } from '../../errors.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import type { SitesInScope } from '../../plugins/scope.ts';
import { scopeFilter } from './scope-filter.ts';

const HEARTBEAT_MS = 15_000;
/** A client that stops reading is dropped before its backlog grows past this. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** A first connection receives the events of this last span: lists read just before are not left behind. */
const FIRST_CONNECTION_REPLAY_MS = 10_000;

/** Open streams this instance keeps for one user, and for one organization. */
export const MAX_STREAMS_PER_USER = 10;
export const MAX_STREAMS_PER_ORGANIZATION = 200;
/** Events held while a stream reads its scope again; past this, it is closed and the client comes back. */
const MAX_HELD_EVENTS = 5000;
/** Told to a stream whose sites changed: the page reads everything again (its sites, lists and account). */
const SCOPE_CHANGED = `event: resync\ndata: ${JSON.stringify({ reason: 'scope' })}\n\n`;

/** An open stream, as a change of scope finds it. */
interface OpenStream {
  userId: string;
  /** Whether it shows some sites only (a member's scope), rather than the whole organization. */
  scoped(): boolean;
  /** Reads the member's sites again and, when they changed, filters by the new ones from now on. */
  rescope(): void;
}

const sameSites = (a: SitesInScope, b: SitesInScope) =>
  a === null || b === null ? a === b : a.size === b.size && [...a].every((site) => b.has(site));

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
 * A member who sees some sites receives theirs only, and an open stream follows a change of their
 * scope heard from any instance: it filters by the new one at once, then sends `resync`.
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
  /** The streams of each organization, which follow a change of scope heard from any instance. */
  const byOrganization = new Map<string, Set<OpenStream>>();
  /** Changes of scope heard so far: a stream that was opening meanwhile reads its scope once more. */
  let scopeChanges = 0;
  const stopListening = events.subscribeAll((event) => {
    if (event.type === 'session-ended') {
      for (const close of [...(bySession.get(event.data.sessionId) ?? [])]) close();
      return;
    }
    // A member's scope changed (or any account of the organization: `userId` null), or the sites of
    // its regions did: the streams concerned read their sites again, without the browser reconnecting.
    if (event.type !== 'account-changed' && event.type !== 'sites-changed') return;
    scopeChanges += 1;
    for (const stream of byOrganization.get(event.organizationId) ?? []) {
      const concerned =
        event.type === 'sites-changed' ? stream.scoped() : event.data.userId === null || event.data.userId === stream.userId;
      if (concerned) stream.rescope();
    }
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
      // Their sites are read from their account afresh, after noting the changes heard so far: a change
      // that this read misses is heard later, and the stream reads them again (see `rescope`).
      const { scopeDeps } = request.server;
      const heardBefore = scopeChanges;
      const filterOf = async (sites: SitesInScope) =>
        sites === null ? null : scopeFilter(sites, await scopeDeps.devicesIn(organizationId, sites));
      const seen = await scopeDeps.memberSites(organizationId, user.id, request.apiKey?.id);
      if (seen === undefined) throw unauthorized(MESSAGES.sessionInvalid);
      let sites: SitesInScope = seen;
      let visible = await filterOf(sites);
      const framed = (event: LiveEvent, replayed: boolean) => {
        const shown = visible ? visible(event, replayed) : event;
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
      /** While the scope is read again, the events that come wait for the new filter (none slips through the old one). */
      let held: { event: LiveEvent; replayed: boolean }[] | null = null;
      /** `replayed`: an event of before the stream's devices were read (see `scopeFilter`). */
      const deliver = (event: LiveEvent, replayed = false) => {
        if (!held) return send(framed(event, replayed));
        held.push({ event, replayed });
        if (held.length > MAX_HELD_EVENTS) close();
      };
      const unsubscribe = events.subscribe(organizationId, (event) => deliver(event));
      const heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
      let rereading = false;
      let again = false;
      const stream: OpenStream = {
        userId: user.id,
        // One whose sites are being read again counts too: that read may have begun before the change.
        scoped: () => sites !== null || rereading,
        rescope() {
          if (closed) return;
          if (rereading) {
            again = true;
            return;
          }
          rereading = true;
          held ??= [];
          void (async () => {
            let changed = false;
            try {
              do {
                again = false;
                const now = await scopeDeps.memberSites(organizationId, user.id, request.apiKey?.id);
                // No longer the organization's member: nothing more for them (their sessions end too).
                if (now === undefined) return close();
                if (sameSites(sites, now)) continue;
                visible = await filterOf(now);
                sites = now;
                changed = true;
              } while (again && !closed);
              if (changed) send(SCOPE_CHANGED);
              const waiting = held ?? [];
              held = null;
              for (const { event, replayed } of waiting) send(framed(event, replayed));
            } catch (error) {
              // What they may see is unknown: the browser reconnects, and the new stream reads it afresh.
              request.log.warn({ err: error }, 'Flux direct : portée non relue, flux fermé');
              close();
            } finally {
              rereading = false;
            }
          })();
        },
      };
      const close = () => {
        if (closed) return;
        closed = true;
        held = null;
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
        const ofOrganization = byOrganization.get(organizationId);
        ofOrganization?.delete(stream);
        if (ofOrganization?.size === 0) byOrganization.delete(organizationId);
        res.end();
      };
      open.add(close);
      if (sessionId) {
        let streams = bySession.get(sessionId);
        if (!streams) bySession.set(sessionId, (streams = new Set()));
        streams.add(close);
      }
      let ofOrganization = byOrganization.get(organizationId);
      if (!ofOrganization) byOrganization.set(organizationId, (ofOrganization = new Set()));
      ofOrganization.add(stream);
      request.raw.on('close', close);
      // A change heard while the stream was opening may have come after its scope was read.
      if (scopeChanges !== heardBefore) stream.rescope();

      send('retry: 3000\n\n');
      const lastEventId = request.headers['last-event-id'];
      const resuming = typeof lastEventId === 'string' && lastEventId.length > 0;
      // Resuming: what the client missed. A first connection: the last seconds, since the page
      // read its lists just before subscribing (events are idempotent on the client). When
      // those events are no longer all known, the client reloads its lists instead.
      const missed = resuming ? events.since(organizationId, lastEventId) : events.recent(organizationId, FIRST_CONNECTION_REPLAY_MS);
      if (missed === null) send('event: resync\ndata: {}\n\n');
      else for (const event of missed) deliver(event, true);
      send(': connecté\n\n');
    },
  });
};
