import { WifiOff } from 'lucide-react';
import { useNow } from '@/hooks/use-now';
import { offlineText } from '../offline-text';
import { useOfflineStatus } from '../use-offline-status';

/**
 * Under the header of the signed-in pages while the app works offline: « Hors connexion —
 * dernières valeurs de 14 h 02 ». A polite status, present (empty) all along so that screen
 * readers announce it when it fills; emptied once the server answers again.
 */
export function OfflineBanner() {
  const { offline, valuesAt } = useOfflineStatus();
  return (
    <div role="status" data-testid="offline-banner" className={offline ? 'border-t border-amber-300/20 bg-amber-300/10' : undefined}>
      {offline && <OfflineNotice valuesAt={valuesAt} />}
    </div>
  );
}

function OfflineNotice({ valuesAt }: { valuesAt: number | null }) {
  const now = useNow();
  return (
    <p className="mx-auto flex max-w-6xl items-center gap-2 px-5 py-2 text-sm font-medium text-amber-100 sm:px-8">
      <WifiOff className="size-4 shrink-0 text-amber-300" aria-hidden="true" />
      <span className="min-w-0">{offlineText(valuesAt, now)}</span>
    </p>
  );
}
