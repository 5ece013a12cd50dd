import { describe, expect, it } from 'vitest';
import { createBatcher, type FlushScheduler } from './frame-batcher';

/** A scheduler the test turns by hand, as frames would. */
function manualFrames() {
  const pending = new Set<() => void>();
  const schedule: FlushScheduler = (flush) => {
    pending.add(flush);
    return () => pending.delete(flush);
  };
  const frame = () => {
    const due = [...pending];
    pending.clear();
    for (const flush of due) flush();
  };
  return { schedule, frame, waiting: () => pending.size };
}

describe('createBatcher', () => {
  it('hands everything pushed between two frames to one flush, in order', () => {
    const frames = manualFrames();
    const batches: number[][] = [];
    // Every turn a frame: items wait for it.
    const batcher = createBatcher<number>((items) => batches.push(items), { schedule: frames.schedule, soon: frames.schedule });
    batcher.push(1);
    batcher.push(2);
    batcher.push(3);
    expect(batches).toEqual([]);
    expect(frames.waiting()).toBe(1);
    frames.frame();
    batcher.push(4);
    frames.frame();
    frames.frame();
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('flushes at once past its limit, and nothing after dispose', () => {
    const frames = manualFrames();
    const batches: number[][] = [];
    const batcher = createBatcher<number>((items) => batches.push(items), {
      schedule: frames.schedule,
      soon: frames.schedule,
      maxItems: 2,
    });
    batcher.push(1);
    batcher.push(2);
    expect(batches).toEqual([[1, 2]]);
    expect(frames.waiting()).toBe(0);
    batcher.push(3);
    batcher.dispose();
    frames.frame();
    batcher.push(4);
    frames.frame();
    expect(batches).toEqual([[1, 2]]);
  });

  it('after a quiet spell, hands what arrived together over right after the current task, then waits for frames in a burst', async () => {
    const frames = manualFrames();
    let clock = 1000;
    const batches: number[][] = [];
    const batcher = createBatcher<number>((items) => batches.push(items), { schedule: frames.schedule, quietMs: 100, now: () => clock });
    batcher.push(1);
    batcher.push(2);
    expect(batches).toEqual([]);
    await Promise.resolve();
    expect(batches).toEqual([[1, 2]]);
    // 10 ms later: a burst, held for the next frame.
    clock += 10;
    batcher.push(3);
    await Promise.resolve();
    expect(batches).toEqual([[1, 2]]);
    frames.frame();
    expect(batches).toEqual([[1, 2], [3]]);
    // Quiet again: at once.
    clock += 500;
    batcher.push(4);
    await Promise.resolve();
    expect(batches).toEqual([[1, 2], [3], [4]]);
  });
});
