/**
 * Where the page's reads stand in its organization's event stream. Every signed-in read answers
 * the newest event the server knew before building it (header `vigie-event-id`). The first
 * stream of the page resumes from the oldest of the reads made before it, instead of asking for
 * the last seconds: a busy organization no longer makes the page reload what it has just read.
 */
export const EVENT_POSITION_HEADER = 'vigie-event-id';

/** The time part of an event id (`<ms in base 36>-<instance>-<sequence>`), to order positions. */
function timeOf(id: string): number {
  const time = parseInt(id.split('-', 1)[0] ?? '', 36);
  return Number.isFinite(time) ? time : Number.NaN;
}

export function createReadPositions() {
  let streamRequestedAt: number | null = null;
  let resumedFrom: string | null = null;
  let oldest: string | null = null;
  let onStaleRead: (() => void) | null = null;

  return {
    /**
     * A read answered with its position; `startedAt` is when it was sent. A read sent before the
     * stream but answered after it, from further back than where the stream resumed, may lack
     * events in between: the page reads again (`onStaleRead`).
     */
    noteRead(position: string, startedAt: number): void {
      if (streamRequestedAt === null) {
        if (oldest === null || timeOf(position) < timeOf(oldest)) oldest = position;
        return;
      }
      if (startedAt < streamRequestedAt && resumedFrom !== null && timeOf(position) < timeOf(resumedFrom)) onStaleRead?.();
    },
    /** The first stream is being requested at `now`: where it resumes (null: the last seconds). */
    streamRequested(now: number, staleRead: () => void): string | null {
      if (streamRequestedAt === null) {
        streamRequestedAt = now;
        resumedFrom = oldest;
      }
      onStaleRead = staleRead;
      return resumedFrom;
    },
    /** Signed out: the next session starts afresh. */
    reset(): void {
      streamRequestedAt = null;
      resumedFrom = null;
      oldest = null;
      onStaleRead = null;
    },
  };
}

/** The page's reads, shared by the API client (which notes them) and the live stream. */
export const readPositions = createReadPositions();
