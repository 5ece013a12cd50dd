import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useOfflineStatus } from './use-offline-status';

/**
 * Back online (or the server heard again) after working offline: every list is read again, for
 * what the worker gave from its store may be hours old, however recently it was asked for.
 */
export function useReadAgainWhenBack(): void {
  const queryClient = useQueryClient();
  const { offline } = useOfflineStatus();
  const wasOffline = useRef(offline);
  useEffect(() => {
    if (offline) wasOffline.current = true;
    else if (wasOffline.current) {
      wasOffline.current = false;
      void queryClient.invalidateQueries();
    }
  }, [offline, queryClient]);
}
