import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useOwner } from '@/lib/auth';
import { flushPendingAnswers, pendingAnswers, type PendingAnswer } from '../offline-answers';
import { taskKeys } from '../task-keys';

/** While answers wait on the phone, sending is tried again this often (and at once when the browser says the network is back). */
const RETRY_MS = 20_000;

/**
 * The signed-in member's answers kept on this phone: sent when the page opens, when the network
 * comes back, and every 20 s while some wait; the tasks' list is read again once one is recorded.
 */
export function usePendingAnswers(): { entries: PendingAnswer[]; dismiss: (taskId: string) => void } {
  const owner = useOwner();
  const queryClient = useQueryClient();
  const [entries, setEntries] = useState<PendingAnswer[]>([]);

  const reload = useCallback(() => {
    if (!owner) return;
    void pendingAnswers.of(owner).then(setEntries, () => setEntries([]));
  }, [owner]);

  const flush = useCallback(() => {
    if (!owner) return;
    void flushPendingAnswers(owner).then(
      (recorded) => {
        if (recorded.length > 0) void queryClient.invalidateQueries({ queryKey: taskKeys.all(owner) });
      },
      () => undefined,
    );
  }, [owner, queryClient]);

  useEffect(() => {
    reload();
    flush();
    const unsubscribe = pendingAnswers.subscribe(reload);
    window.addEventListener('online', flush);
    return () => {
      unsubscribe();
      window.removeEventListener('online', flush);
    };
  }, [reload, flush]);

  const waiting = entries.some((entry) => entry.state === 'waiting');
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(flush, RETRY_MS);
    return () => window.clearInterval(timer);
  }, [waiting, flush]);

  return { entries, dismiss: (taskId) => void pendingAnswers.dismiss(taskId) };
}
