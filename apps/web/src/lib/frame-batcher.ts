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

export interface Batcher<T> {
  push(item: T): void;
  /** Hands what is waiting to the flush now. */
  flush(): void;
  /** Drops what is waiting; nothing is flushed afterwards. */
  dispose(): void;
}

/**
 * Collects items and hands them to `flush` together, once per scheduled turn (one frame by
 * default): the screen is updated once however many items arrived in between. Past `maxItems`
 * the batch is flushed at once, so a page that paints no frame keeps its memory bounded.
 */
export function createBatcher<T>(
  flush: (items: T[]) => void,
  { schedule = beforeNextPaint, maxItems = 5000 }: { schedule?: FlushScheduler; maxItems?: number } = {},
): Batcher<T> {
  let items: T[] = [];
  let cancel: (() => void) | null = null;
  let disposed = false;

  const run = () => {
    cancel?.();
    cancel = null;
    if (items.length === 0) return;
    const batch = items;
    items = [];
    flush(batch);
  };

  return {
    push(item) {
      if (disposed) return;
      items.push(item);
      if (items.length >= maxItems) run();
      else cancel ??= schedule(run);
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
