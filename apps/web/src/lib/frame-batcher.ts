/** When to run a flush: before the next frame is painted, or soon when no frame is coming. */
export type FlushScheduler = (flush: () => void) => () => void;

/**
 * Before the next paint while the page is shown; a background tab paints no frame, so there a
 * timer flushes (browsers slow it down, and the batch only grows).
 */
export const beforeNextPaint: FlushScheduler = (flush) => {
  if (typeof document !== 'undefined' && document.visibilityState === 'visible' && typeof requestAnimationFrame === 'function') {
    const frame = requestAnimationFrame(flush);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(flush, 250);
  return () => clearTimeout(timer);
};

/** Right after the current task: what arrived together (one network chunk) goes together. */
export const afterThisTask: FlushScheduler = (flush) => {
  let live = true;
  queueMicrotask(() => {
    if (live) flush();
  });
  return () => {
    live = false;
  };
};

export interface Batcher<T> {
  push(item: T): void;
  /** Hands what is waiting to the flush now. */
  flush(): void;
  /** Drops what is waiting; nothing is flushed afterwards. */
  dispose(): void;
}

/**
 * Collects items and hands them to `flush` together. After a quiet spell (`quietMs` since the
 * last flush) the first items go right after the current task: a lone event shows at once. In a
 * burst they wait for the next turn of `schedule` (one frame by default): the screen is updated
 * once per frame however many items arrived in between. Past `maxItems` the batch is flushed at
 * once, so a page that paints no frame keeps its memory bounded.
 */
export function createBatcher<T>(
  flush: (items: T[]) => void,
  {
    schedule = beforeNextPaint,
    soon = afterThisTask,
    quietMs = 100,
    now = () => performance.now(),
    maxItems = 5000,
  }: { schedule?: FlushScheduler; soon?: FlushScheduler; quietMs?: number; now?: () => number; maxItems?: number } = {},
): Batcher<T> {
  let items: T[] = [];
  let cancel: (() => void) | null = null;
  let disposed = false;
  let lastFlush = Number.NEGATIVE_INFINITY;

  const run = () => {
    cancel?.();
    cancel = null;
    if (items.length === 0) return;
    const batch = items;
    items = [];
    lastFlush = now();
    flush(batch);
  };

  return {
    push(item) {
      if (disposed) return;
      items.push(item);
      if (items.length >= maxItems) run();
      else cancel ??= (now() - lastFlush >= quietMs ? soon : schedule)(run);
    },
    flush: run,
    dispose() {
      disposed = true;
      cancel?.();
      cancel = null;
      items = [];
    },
  };
}
