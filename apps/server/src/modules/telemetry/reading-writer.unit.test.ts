import { describe, expect, it } from 'vitest';
import { createReadingWriter, type ReadingRow } from './reading-writer.ts';

const row = (n: number): ReadingRow => ({ deviceId: `d${n}`, key: 'temperature', ts: new Date(n), value: n, readingId: null });

/** A writer whose transactions wait until the test lets them commit; what each one held. */
function gatedWriter(concurrency: number) {
  const transactions: number[] = [];
  const gates: (() => void)[] = [];
  const writer = createReadingWriter({
    concurrency,
    insert: async (rows) => {
      transactions.push(rows.length);
      await new Promise<void>((resolve) => gates.push(resolve));
      return new Set<string>();
    },
    touch: async () => undefined,
  });
  const commitAll = () => gates.splice(0).forEach((open) => open());
  return { writer, transactions, commitAll };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('reading writer', () => {
  it('gathers what arrives while a transaction commits into the next one', async () => {
    const { writer, transactions, commitAll } = gatedWriter(4);
    const first = writer.write([row(0)], []);
    await tick();
    const others = Array.from({ length: 300 }, (_, n) => writer.write([row(n + 1)], []));
    await tick();
    // With room for four transactions, the 300 wait for the first rather than split into small ones.
    expect(transactions).toEqual([1]);
    commitAll();
    await first;
    await tick();
    expect(transactions).toEqual([1, 300]);
    commitAll();
    await Promise.all(others);
  });

  it('opens another transaction when more than one can hold waits', async () => {
    const { writer, transactions, commitAll } = gatedWriter(2);
    const first = writer.write([row(0)], []);
    await tick();
    const big = Array.from({ length: 6 }, (_, n) =>
      writer.write(
        Array.from({ length: 1000 }, (__, i) => row(n * 1000 + i)),
        [],
      ),
    );
    await tick();
    expect(transactions).toEqual([1, 5000]);
    commitAll();
    await first;
    await tick();
    expect(transactions).toEqual([1, 5000, 1000]);
    commitAll();
    await Promise.all(big);
  });
});
