import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type DatabaseHandle, openDatabase } from '../../db/database.ts';
import { memoryTemplate, tempDir } from '../../test/test-app.ts';
import { createEventHub, type EventHub } from './event-hub.ts';

const noteSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  type: z.literal('note'),
  data: z.object({ n: z.number(), text: z.string() }),
});
type Note = Pick<z.infer<typeof noteSchema>, 'type' | 'data'>;
const ORG = 'org-a';
const quiet = { warn: () => undefined, info: () => undefined };

function hubOn(database: DatabaseHandle): EventHub<Note> {
  return createEventHub<Note>(database.pubsub, quiet, {
    parse: (value) => noteSchema.safeParse(value).data ?? null,
    browserTypes: new Set(['note']),
  });
}

/**
 * Events of every size, published together: short ones, one under 7 800 characters whose accents
 * make it over PostgreSQL's 8 000 bytes, one far larger (long corrective actions).
 */
const batch: Note[] = [
  { type: 'note', data: { n: 0, text: 'session terminée' } },
  { type: 'note', data: { n: 1, text: 'é'.repeat(5000) } },
  { type: 'note', data: { n: 2, text: 'jeton renouvelé' } },
  { type: 'note', data: { n: 3, text: 'Action corrective : porte refermée, denrées déplacées. '.repeat(600) } },
  { type: 'note', data: { n: 4, text: 'déconnexion' } },
];

/** Every instance hears every event of a batch, whatever its size in characters or bytes, in order. */
describe('the bus carries events of any size', { timeout: 60_000 }, () => {
  const url = process.env['DATABASE_URL'] || undefined;
  let first: DatabaseHandle;
  let second: DatabaseHandle;

  beforeAll(async () => {
    const open = () =>
      openDatabase({ databaseUrl: url, dataDir: tempDir(), inMemory: !url, memoryTemplate: memoryTemplate(), logger: quiet });
    first = await open();
    // On the embedded database there is one instance: it hears its own events.
    second = url ? await open() : first;
  });
  afterAll(async () => {
    if (second !== first) await second?.close();
    await first?.close();
  });

  it(`delivers accented and oversized events with the others of their batch (${url ? 'PostgreSQL, two instances' : 'PGlite'})`, async () => {
    const publisher = hubOn(first);
    const listener = hubOn(second);
    const heard: Note['data'][] = [];
    listener.subscribe(ORG, (event) => heard.push(event.data));
    // LISTEN is set up asynchronously: wait until a probe gets through.
    await vi.waitFor(
      async () => {
        publisher.publish([{ organizationId: 'probe', type: 'note', data: { n: -1, text: 'sonde' } }]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(listener.lastId('probe')).not.toBeNull();
      },
      { timeout: 10_000 },
    );

    for (let round = 0; round < 3; round += 1) {
      heard.length = 0;
      publisher.publish(batch.map((note) => ({ ...note, organizationId: ORG })));
      await vi.waitFor(() => expect(heard).toHaveLength(batch.length), { timeout: 10_000 });
      expect(heard).toEqual(batch.map((note) => note.data));
    }
    publisher.close();
    listener.close();
  });
});
