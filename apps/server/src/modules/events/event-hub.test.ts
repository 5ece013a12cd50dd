import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createLocalPubSub } from '../../db/pubsub.ts';
import { createEventHub, type EventHub } from './event-hub.ts';

const testEventSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  type: z.literal('reading'),
  data: z.object({ n: z.number() }),
});
type TestEvent = Pick<z.infer<typeof testEventSchema>, 'type' | 'data'>;

const ORG = 'org-a';
const quiet = { warn: () => undefined };

function hub(): EventHub<TestEvent> {
  return createEventHub<TestEvent>(createLocalPubSub(), quiet, {
    parse: (value) => testEventSchema.safeParse(value).data ?? null,
    browserTypes: new Set(['reading']),
  });
}

async function publish(events: EventHub<TestEvent>, count: number, start = 0) {
  events.publish(
    Array.from({ length: count }, (_, index) => ({ organizationId: ORG, type: 'reading' as const, data: { n: start + index } })),
  );
  await new Promise((resolve) => setImmediate(resolve));
}

describe('event hub replay', () => {
  afterEach(() => vi.useRealTimers());

  it('gives a first connection the events of the last seconds only', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const events = hub();
    await publish(events, 2);
    vi.advanceTimersByTime(11_000);
    await publish(events, 3, 2);
    expect(events.recent(ORG, 10_000)?.map((event) => event.data)).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }]);
    expect(events.recent('org-b', 10_000)).toEqual([]);
    events.close();
  });

  it('answers null when events of the span have already left the buffer', async () => {
    const events = hub();
    await publish(events, 600);
    expect(events.recent(ORG, 10_000)).toBeNull();
    events.close();
  });

  it('replays after a known id and answers null for an unknown one', async () => {
    const events = hub();
    const seen: string[] = [];
    events.subscribe(ORG, (event) => seen.push(event.id));
    await publish(events, 3);
    expect(events.since(ORG, seen[0] ?? '')?.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(events.since(ORG, 'inconnu')).toBeNull();
    events.close();
  });
});
