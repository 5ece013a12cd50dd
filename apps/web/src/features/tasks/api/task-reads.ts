import { endpoints } from '@vigie/contract/routes';
import { endpointPath } from '@/lib/api-client';
import { startEarlyFetch } from '@/lib/early-fetch';

// Apart from the queries (task-queries.ts) so that the app's entry, which starts these reads at page
// load, carries these few lines and not the queries' code.

const HOUR = 3600_000;
/** How far before midnight the day's read reaches: the rounds of last night still open. */
export const DAY_LOOKBACK_MS = 6 * HOUR;

/**
 * The tasks « Tâches du jour » reads at `now`: today in the phone's clock and the six hours before
 * it (a round due at 23 h is still answered after midnight). The same window for every moment of
 * one day, so that the read started at page load is the one the screen asks for.
 */
export function taskDayWindow(now: number): { from: string; to: string } {
  const start = new Date(new Date(now).toDateString()).getTime();
  return { from: new Date(start - DAY_LOOKBACK_MS).toISOString(), to: new Date(start + 24 * HOUR).toISOString() };
}

/** The address of endpoints.tasks.list for `window`: the key of its early read. */
export const tasksListPath = (window: { from: string; to: string }) => endpointPath(endpoints.tasks.list, undefined, window);
export const PROCESSES_PATH = endpointPath(endpoints.processes.list);

/**
 * « Tâches du jour » opened afresh by a returning user (app/signed-in-reads.ts, at page load): the
 * day's tasks and the processes under way leave with the session check instead of after the frame
 * and the screen's code; `useTasks` and `useProcesses` take their answers.
 */
export function startTaskReads(token: string, now = Date.now()): void {
  startEarlyFetch(tasksListPath(taskDayWindow(now)), token);
  startEarlyFetch(PROCESSES_PATH, token);
}
