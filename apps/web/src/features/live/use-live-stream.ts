import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '@/lib/auth';
import { openLiveStream } from '@/lib/live-stream';
import { readPositions } from '@/lib/read-positions';
import type { SseMessage } from '@/lib/sse-parser';

/** `connecting` until the stream first answers, `reconnecting` after it dropped. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/** Kept across screens: the next page resumes the stream where the previous one left it. */
let resumeAfter: string | null = null;

/** The `resync` the server sends when the member's scope changed: other shops are theirs now. */
function isScopeChange(message: SseMessage): boolean {
  if (message.event !== 'resync') return false;
  try {
    const data: unknown = JSON.parse(message.data);
    return typeof data === 'object' && data !== null && (data as Record<string, unknown>)['reason'] === 'scope';
  } catch {
    return false;
  }
}

/**
 * Follows endpoints.stream.open while signed in and hands each event to `onMessage`. Stops when the
 * session ends (logout, or a token the server refuses) or the caller unmounts. Returns the
 * state of the connection, for the screen to say whether its values are live. When the member's
 * scope changes, the open stream follows it (the server says so with a `resync`): everything is
 * read again, the account (its scope) included, so the shops that came appear and the others go.
 */
export function useLiveStream({ onMessage }: { onMessage: (message: SseMessage) => void }): LiveStatus {
  const { token, user, refreshUser } = useAuth();
  const queryClient = useQueryClient();
  const owner = user?.id;
  const [status, setStatus] = useState<LiveStatus>('connecting');
  // The latest handlers, without reopening the stream when they change.
  const handler = useRef(onMessage);
  const readAll = useRef<() => void>(() => undefined);
  useEffect(() => {
    handler.current = onMessage;
    readAll.current = () => {
      void queryClient.invalidateQueries();
      // Should the account not be read, it shows its former scope until the page reloads; the lists are right all the same.
      refreshUser().catch(() => undefined);
    };
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
      onMessage: (message) => {
        if (isScopeChange(message)) readAll.current();
        handler.current(message);
      },
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
