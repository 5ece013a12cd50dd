import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { applyLiveEvent } from './apply-live-event';
import { openLiveStream } from './live-stream';

/** `connecting` until the stream first answers, `reconnecting` after it dropped. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/** Kept across screens: the next page resumes the stream where the previous one left it. */
let resumeAfter: string | null = null;

/**
 * Follows GET /api/stream while the signed-in screen is open and keeps the device caches of
 * `owner` up to date. Stops when the token goes (logout) or the screen closes. Returns the
 * state of the connection, for the screen to say whether its values are live.
 */
export function useLiveStream({ token, owner }: { token: string | null; owner: string | undefined }): LiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');

  useEffect(() => {
    if (!token || !owner) return undefined;
    // The API client carries the token; a refused one (401) ends the session there.
    const stop = openLiveStream({
      lastEventId: resumeAfter,
      onLastEventId: (id) => (resumeAfter = id),
      onConnection: (connected) => setStatus(connected ? 'live' : 'reconnecting'),
      onMessage: (message) => applyLiveEvent(queryClient, owner, message),
    });
    return () => {
      stop();
      setStatus('connecting');
    };
  }, [token, owner, queryClient]);

  useEffect(() => {
    if (!token) resumeAfter = null;
  }, [token]);

  return status;
}
