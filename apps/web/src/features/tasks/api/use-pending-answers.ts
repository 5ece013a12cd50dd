import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useOwner } from '@/lib/auth';
import { flushPendingAnswers, pendingAnswers, type PendingAnswer } from '../offline-answers';
import { taskKeys } from '../task-keys';

/** While answers wait on the phone, sending is tried again this often (and at once when the browser says the network is back). */
const RETRY_MS = 20_000;

/**
 * Sends the signed-in member's answers kept on this phone: when the app opens, when the network
 * comes back, and every 20 s while some wait, whatever screen is shown; the tasks' list is read
 * again once one is recorded. Mounted by the signed-in layout (and by « Tâches du jour », for the
 * screen alone); one sending at a time whatever the number of callers.
 */
export function usePendingAnswerSender(): void {
  const owner = useOwner();
  const queryClient = useQueryClient();
  const [waiting, setWaiting] = useState(false);

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
    if (!owner) return;
    const check = () =>
      void pendingAnswers.of(owner).then(
        (entries) => setWaiting(entries.some((entry) => entry.state === 'waiting')),
        () => setWaiting(false),
      );
    check();
    flush();
    const unsubscribe = pendingAnswers.subscribe(check);
    window.addEventListener('online', flush);
    return () => {
      unsubscribe();
      window.removeEventListener('online', flush);
    };
  }, [owner, flush]);

  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(flush, RETRY_MS);
    return () => window.clearInterval(timer);
  }, [waiting, flush]);
}

/** The signed-in member's answers kept on this phone, waiting or refused, and the way to dismiss a refused one. */
export function usePendingAnswers(): { entries: PendingAnswer[]; dismiss: (taskId: string) => void } {
  const owner = useOwner();
  const [entries, setEntries] = useState<PendingAnswer[]>([]);
  usePendingAnswerSender();

  useEffect(() => {
    if (!owner) return;
    const reload = () => void pendingAnswers.of(owner).then(setEntries, () => setEntries([]));
    reload();
    return pendingAnswers.subscribe(reload);
  }, [owner]);

  return { entries, dismiss: (taskId) => void pendingAnswers.dismiss(taskId) };
}
