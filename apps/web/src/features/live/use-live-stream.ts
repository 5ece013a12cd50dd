import { useEffect, useRef, useState } from 'react';
import { useAuth } from '@/lib/auth';
import { openLiveStream } from '@/lib/live-stream';
import { readPositions } from '@/lib/read-positions';
import type { SseMessage } from '@/lib/sse-parser';

/** `connecting` until the stream first answers, `reconnecting` after it dropped. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/** Kept across screens: the next page resumes the stream where the previous one left it. */
let resumeAfter: string | null = null;

/**
 * Follows endpoints.stream.open while signed in and hands each event to `onMessage`. Stops when the
 * session ends (logout, or a token the server refuses) or the caller unmounts. Returns the
 * state of the connection, for the screen to say whether its values are live.
 */
export function useLiveStream({ onMessage }: { onMessage: (message: SseMessage) => void }): LiveStatus {
  const { token, user } = useAuth();
  const owner = user?.id;
  const [status, setStatus] = useState<LiveStatus>('connecting');
  // The latest handler, without reopening the stream when it changes.
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  });

  useEffect(() => {
    if (!token || !owner) return undefined;
    // The first stream of the session resumes where the page's earlier reads stood; a read that
    // turns out older than that is read again, as after a `resync`.
    const readFrom = readPositions.streamRequested(performance.now(), () => handler.current({ id: null, event: 'resync', data: '{}' }));
    const stop = openLiveStream({
      lastEventId: resumeAfter ?? readFrom,
      onLastEventId: (id) => (resumeAfter = id),
      onConnection: (connected) => setStatus(connected ? 'live' : 'reconnecting'),
      onMessage: (message) => handler.current(message),
    });
    return () => {
      stop();
      setStatus('connecting');
    };
  }, [token, owner]);

  useEffect(() => {
    if (token) return;
    resumeAfter = null;
    readPositions.reset();
  }, [token]);

  return status;
}
