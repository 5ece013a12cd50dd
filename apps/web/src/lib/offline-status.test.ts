import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOfflineStatus, OFFLINE_HEADER } from './offline-status';

const stored = (iso: string) => new Response('{}', { status: 200, headers: { [OFFLINE_HEADER]: iso } });
const fresh = () => new Response('{}', { status: 200 });

function setOnLine(value: boolean) {
  vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(value);
  window.dispatchEvent(new Event(value ? 'online' : 'offline'));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('offline status', () => {
  it('is online until told otherwise', () => {
    const status = createOfflineStatus();
    status.subscribe(() => undefined);
    expect(status.getSnapshot()).toEqual({ offline: false, valuesAt: null });
    status.noteAnswer(fresh());
    expect(status.getSnapshot()).toEqual({ offline: false, valuesAt: null });
  });

  it('goes offline with the browser, dating the values from when the server was last heard, and comes back with it', () => {
    let now = Date.parse('2026-03-12T13:02:00Z');
    const status = createOfflineStatus(() => now);
    const listener = vi.fn();
    const unsubscribe = status.subscribe(listener);
    status.noteAnswer(fresh());
    now += 60_000;
    setOnLine(false);
    expect(status.getSnapshot()).toEqual({ offline: true, valuesAt: Date.parse('2026-03-12T13:02:00Z') });
    expect(listener).toHaveBeenCalledTimes(1);
    setOnLine(true);
    expect(status.getSnapshot()).toEqual({ offline: false, valuesAt: null });
    unsubscribe();
  });

  it('reads the browser’s state when first watched', () => {
    vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    const status = createOfflineStatus();
    status.subscribe(() => undefined);
    expect(status.getSnapshot().offline).toBe(true);
  });

  it('says offline when an answer came from the worker’s store, dated by the oldest one, until the server answers', () => {
    const status = createOfflineStatus();
    status.subscribe(() => undefined);
    status.noteAnswer(stored('2026-03-12T13:05:00.000Z'));
    status.noteAnswer(stored('2026-03-12T13:02:00.000Z'));
    status.noteAnswer(stored('2026-03-12T13:04:00.000Z'));
    expect(status.getSnapshot()).toEqual({ offline: true, valuesAt: Date.parse('2026-03-12T13:02:00.000Z') });
    // A failure says nothing of the connection.
    status.noteAnswer(new Response('{}', { status: 503 }));
    expect(status.getSnapshot().offline).toBe(true);
    status.noteAnswer(fresh());
    expect(status.getSnapshot()).toEqual({ offline: false, valuesAt: null });
  });

  it('comes back when the live stream is heard again, or the browser is back online', () => {
    const status = createOfflineStatus();
    status.subscribe(() => undefined);
    status.noteAnswer(stored('2026-03-12T13:02:00.000Z'));
    status.noteHeard();
    expect(status.getSnapshot().offline).toBe(false);
    status.noteAnswer(stored('2026-03-12T13:02:00.000Z'));
    setOnLine(true);
    expect(status.getSnapshot().offline).toBe(false);
  });

  it('does not date values whose age it cannot read', () => {
    const status = createOfflineStatus();
    status.subscribe(() => undefined);
    status.noteAnswer(stored('2026-03-12T13:02:00.000Z'));
    status.noteAnswer(stored('hier'));
    expect(status.getSnapshot()).toEqual({ offline: true, valuesAt: null });
  });

  it('keeps the same snapshot while nothing changes', () => {
    const status = createOfflineStatus();
    status.subscribe(() => undefined);
    status.noteAnswer(stored('2026-03-12T13:02:00.000Z'));
    const first = status.getSnapshot();
    status.noteAnswer(stored('2026-03-12T13:03:00.000Z'));
    expect(status.getSnapshot()).toBe(first);
  });
});
