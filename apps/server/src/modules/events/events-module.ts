import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { PubSub } from '../../db/pubsub.ts';
import { createLiveEventHub, type EventHub } from './event-hub.ts';
import { stampEventPosition, streamRoutes } from './stream-routes.ts';

/** What the events module offers others to announce with: the hub's payloads, each with its organization. */
export type Announced = Parameters<EventHub['publish']>[0];

/**
 * The events module: the live event hub (this instance's and the other instances', through the
 * bus) and the browsers' live stream.
 * In: the bus, and whether other instances share it. Out: the hub, `tell` (an announcement that
 * completes once every instance heard it), the stream's routes and the hook that stamps each
 * signed-in answer with the stream's position.
 */
export function createEventsModule(options: {
  pubsub: PubSub;
  sharedByInstances: boolean;
  logger: Pick<Logger, 'warn'>;
  /** The clock of the stream's replay window (tests hold it); the system's by default. */
  replayClock?: (() => number) | undefined;
}) {
  const events = createLiveEventHub(options.pubsub, options.logger, options.replayClock);
  /** Instances sharing PostgreSQL: the change completes once the bus has carried it to all of them. */
  async function tell(announced: Announced): Promise<void> {
    if (options.sharedByInstances) await events.publishHeard(announced);
    else events.publish(announced);
  }
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(streamRoutes, { events });
  };
  return {
    events,
    tell,
    routes,
    stampPosition: stampEventPosition(events),
    services: { events },
    close: () => events.close(),
  };
}

export type EventsModule = ReturnType<typeof createEventsModule>;
