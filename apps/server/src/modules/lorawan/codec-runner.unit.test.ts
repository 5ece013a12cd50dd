import { afterEach, describe, expect, it } from 'vitest';
import { type CodecRun, type CodecRunner, createCodecRunner } from './codec-runner.ts';

/** The Milesight EM300-TH frame of its maker's example: battery 92 %, 30,8 °C, 50,5 %. */
const FRAME = { bytes: Uint8Array.from(Buffer.from('01755c03673401046865', 'hex')), fPort: 85, recvTime: new Date('2026-11-27T08:00:00Z') };
const FAST = 'function decodeUplink(input) { return { data: { temperature: input.bytes[5] / 10 } }; }';
/** Stopped by its interpreter after 50 ms, every time. */
const LOOPING = 'function decodeUplink(input) { while (true) {} }';

/** The order in which runs settle, by label. */
function recorder() {
  const settled: string[] = [];
  const track = (label: string, run: Promise<CodecRun>) =>
    run.then((result) => {
      settled.push(label);
      return result;
    });
  return { settled, track };
}

describe('pasted codecs shared fairly between organizations (codec-runner.ts)', () => {
  let runner: CodecRunner | undefined;
  afterEach(async () => {
    await runner?.close();
    runner = undefined;
  });

  it('serves another organization while one floods a looping codec: its frame does not wait for the flood', async () => {
    const pool = createCodecRunner({ threads: 2 });
    runner = pool;
    // Both threads started and their engines compiled: what follows measures the queue, not a start-up.
    await Promise.all([pool.run(FAST, FRAME, { organizationId: 'b' }), pool.run(FAST, FRAME, { organizationId: 'a' })]);
    const { settled, track } = recorder();
    const flood = Array.from({ length: 8 }, (_, index) =>
      track(`a${index}`, pool.run(`${LOOPING} // ${index}`, FRAME, { organizationId: 'a' })),
    );
    const other = await track('b', pool.run(FAST, FRAME, { organizationId: 'b' }));
    expect(other).toEqual({ ok: true, readings: [{ ts: null, values: { temperature: 5.2 } }], warnings: [], style: 'ts013' });
    // At most one of the flood's frames was decoded by then: the other thread stayed free for b.
    expect(settled.filter((label) => label.startsWith('a')).length).toBeLessThanOrEqual(1);
    const results = await Promise.all(flood);
    for (const result of results) expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^Le décodeur a dépassé 50 ms/) });
  }, 30_000);

  it('decodes two flooding organizations side by side, not one after the other', async () => {
    const pool = createCodecRunner({ threads: 2 });
    runner = pool;
    await Promise.all([pool.run(FAST, FRAME, { organizationId: 'a' }), pool.run(FAST, FRAME, { organizationId: 'c' })]);
    const { settled, track } = recorder();
    const runs = [
      ...Array.from({ length: 4 }, (_, index) => track('a', pool.run(`${LOOPING} // a${index}`, FRAME, { organizationId: 'a' }))),
      ...Array.from({ length: 4 }, (_, index) => track('c', pool.run(`${LOOPING} // c${index}`, FRAME, { organizationId: 'c' }))),
    ];
    await Promise.all(runs);
    // c's frames, queued after all of a's, are decoded alongside them, not after them.
    expect(settled.slice(0, 4).filter((label) => label === 'c').length).toBeGreaterThanOrEqual(1);
    expect(settled.slice(-4).filter((label) => label === 'a').length).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('bounds each organization’s queue: past it a frame is refused at once, in French, and the others go on', async () => {
    const pool = createCodecRunner({ threads: 2, queuePerOrganization: 5 });
    runner = pool;
    const runs = Array.from({ length: 8 }, (_, index) => pool.run(`${LOOPING} // ${index}`, FRAME, { organizationId: 'a' }));
    const refused = await Promise.race([
      Promise.all(runs.slice(5)),
      new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 40)),
    ]);
    expect(refused).not.toBe('late');
    for (const result of refused as CodecRun[]) {
      expect(result).toEqual({
        ok: false,
        refused: true,
        error:
          'Trame refusée sans être décodée\u202F: 5 trames de l’organisation attendent déjà leur décodeur collé, trop lent pour le débit reçu.',
      });
    }
    // Another organization's queue is its own.
    expect(await pool.run(FAST, FRAME, { organizationId: 'b' })).toMatchObject({ ok: true });
    for (const result of await Promise.all(runs.slice(0, 5)))
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^Le décodeur a dépassé/) });
  }, 30_000);

  it('suspends a codec stopped three frames in a row, for 1 min then twice as long each time, and no other', async () => {
    let now = new Date('2026-12-01T08:00:00Z');
    const pool = createCodecRunner({ threads: 2, now: () => now });
    runner = pool;
    const looping = { organizationId: 'a', codec: 'custom:boucle' };
    for (let strike = 0; strike < 3; strike += 1) {
      expect(await pool.run(LOOPING, FRAME, looping)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^Le décodeur a dépassé 50 ms/),
      });
    }
    const suspended = await pool.run(LOOPING, FRAME, looping);
    expect(suspended).toEqual({
      ok: false,
      refused: true,
      error:
        'Trame refusée sans être décodée\u202F: son décodeur a dépassé 50 ms sur 3 trames de suite, il est suspendu encore 1 min (puis essayé de nouveau).',
    });
    // Another codec of the same organization, and the same source under another organization, still run.
    expect(await pool.run(FAST, FRAME, { organizationId: 'a', codec: 'custom:rapide' })).toMatchObject({ ok: true });
    expect(await pool.run(LOOPING, FRAME, { organizationId: 'b', codec: 'custom:boucle' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Le décodeur a dépassé/),
    });
    // Its time served, it is tried again; stopped again, it is suspended twice as long.
    now = new Date(now.getTime() + 61_000);
    expect(await pool.run(LOOPING, FRAME, looping)).toMatchObject({ ok: false, error: expect.stringMatching(/^Le décodeur a dépassé/) });
    expect(await pool.run(LOOPING, FRAME, looping)).toMatchObject({
      refused: true,
      error: expect.stringMatching(/suspendu encore 2 min/),
    });
    // A frame it decodes clears its record: the next stop is one strike of three again.
    const healed = { organizationId: 'a', codec: 'custom:parfois' };
    for (let strike = 0; strike < 2; strike += 1) await pool.run(LOOPING, FRAME, healed);
    expect(await pool.run(FAST, FRAME, healed)).toMatchObject({ ok: true });
    for (let strike = 0; strike < 2; strike += 1) {
      expect(await pool.run(LOOPING, FRAME, healed)).toMatchObject({ ok: false, error: expect.stringMatching(/^Le décodeur a dépassé/) });
    }
  }, 30_000);
});
