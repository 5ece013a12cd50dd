import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { applyLiveEvent } from './apply-live-event';
import { openLiveStream } from './live-stream';

/** Kept across screens: the next page resumes the stream where the previous one left it. */
let resumeAfter: string | null = null;

/**
 * Follows GET /api/stream while the signed-in screen is open and keeps the device caches of
 * `owner` up to date. Stops when the token goes (logout) or the screen closes. Returns whether
 * the stream is currently connected.
 */
export function useLiveStream(token: string | null, owner: string | undefined, onSessionExpired?: () => void): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!token || !owner) return undefined;
    const stop = openLiveStream({
      token,
      lastEventId: resumeAfter,
      onLastEventId: (id) => (resumeAfter = id),
      onConnection: setConnected,
      onUnauthorized: onSessionExpired,
      onMessage: (message) => applyLiveEvent(queryClient, owner, message),
    });
    return () => {
      stop();
      setConnected(false);
    };
  }, [token, owner, queryClient, onSessionExpired]);

  useEffect(() => {
    if (!token) resumeAfter = null;
  }, [token]);

  return connected;
}
