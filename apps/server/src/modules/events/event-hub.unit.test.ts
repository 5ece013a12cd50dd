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

describe('event hub publication', () => {
  it('sends what is published while a publication is on its way together, in order', async () => {
    const local = createLocalPubSub();
    const sent: string[][] = [];
    let release: () => void = () => undefined;
    const pubsub = {
      ...local,
      publish: async (payloads: string[]) => {
        sent.push(payloads);
        // The first publication waits, as a NOTIFY does for the database's answer.
        if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
        await local.publish(payloads);
      },
    };
    const events = createEventHub<TestEvent>(pubsub, quiet, {
      parse: (value) => testEventSchema.safeParse(value).data ?? null,
      browserTypes: new Set(['reading']),
    });
    const seen: number[] = [];
    events.subscribe(ORG, (event) => seen.push(event.data.n));

    for (let n = 0; n < 300; n += 1) events.publish([{ organizationId: ORG, type: 'reading', data: { n } }]);
    release();
    await vi.waitFor(() => expect(seen).toHaveLength(300));

    // The first event leaves at once; the 299 published while it was on its way leave together
    // next, in one publication of as few payloads as the size limit allows.
    expect(sent).toHaveLength(2);
    expect(sent[0]).toHaveLength(1);
    expect(sent[1]?.length).toBeLessThan(10);
    expect(sent[1]?.every((payload) => payload.length < 7800)).toBe(true);
    expect(seen).toEqual(Array.from({ length: 300 }, (_, n) => n));
    events.close();
  });
});
