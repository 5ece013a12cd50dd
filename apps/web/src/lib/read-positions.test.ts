import { describe, expect, it, vi } from 'vitest';
import { createReadPositions } from './read-positions';

/** An event id as the server makes it: its time in base 36, the instance, a sequence. */
const idAt = (ms: number, sequence = 1) => `${ms.toString(36)}-abcd1234-${sequence.toString(36)}`;

describe('read positions', () => {
  it('resumes the first stream from the oldest read made before it', () => {
    const positions = createReadPositions();
    positions.noteRead(idAt(2_000), 10);
    positions.noteRead(idAt(1_000), 5);
    positions.noteRead(idAt(3_000), 12);
    expect(positions.streamRequested(20, () => undefined)).toBe(idAt(1_000));
    // Later streams of the page (another screen) are told the same place until they know better.
    expect(positions.streamRequested(50, () => undefined)).toBe(idAt(1_000));
  });

  it('asks for the last seconds when nothing was read before the stream', () => {
    const positions = createReadPositions();
    expect(positions.streamRequested(20, () => undefined)).toBeNull();
  });

  it('reads again when a read sent before the stream answers from further back than where it resumed', () => {
    const positions = createReadPositions();
    const stale = vi.fn();
    positions.noteRead(idAt(5_000), 10);
    positions.streamRequested(20, stale);
    // Sent after the stream: covered by the stream itself.
    positions.noteRead(idAt(1_000), 30);
    expect(stale).not.toHaveBeenCalled();
    // Sent before it, newer than the resume point: covered by the replay.
    positions.noteRead(idAt(6_000), 15);
    expect(stale).not.toHaveBeenCalled();
    // Sent before it, older: events between it and the resume point may be missing.
    positions.noteRead(idAt(4_000), 15);
    expect(stale).toHaveBeenCalledTimes(1);
  });

  it('forgets everything at sign-out', () => {
    const positions = createReadPositions();
    positions.noteRead(idAt(1_000), 1);
    positions.streamRequested(2, () => undefined);
    positions.reset();
    positions.noteRead(idAt(9_000), 3);
    expect(positions.streamRequested(4, () => undefined)).toBe(idAt(9_000));
  });
});
