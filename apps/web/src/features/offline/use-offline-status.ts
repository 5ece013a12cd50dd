import { useSyncExternalStore } from 'react';
import { offlineStatus, type OfflineStatus } from '@/lib/offline-status';

const serverSnapshot: OfflineStatus = { offline: false, valuesAt: null };

/** Whether the page works offline, and how old its values are (see lib/offline-status.ts). */
export function useOfflineStatus(): OfflineStatus {
  return useSyncExternalStore(offlineStatus.subscribe, offlineStatus.getSnapshot, () => serverSnapshot);
}
