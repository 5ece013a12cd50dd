import { startWorkerThread } from '../../apps/server/src/worker-thread.ts';

/**
 * Every job's outcome, in the order they finish: here, one after the other, when `workers` ≤ 1;
 * else over that many worker threads running `workerName` (a file beside `callerUrl` that answers
 * each job it is sent with one message).
 */
export async function spreadJobs<Job, Outcome>(
  jobs: readonly Job[],
  workers: number,
  callerUrl: string,
  workerName: string,
  here: (job: Job) => Outcome,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  if (workers <= 1) {
    for (const job of jobs) outcomes.push(here(job));
    return outcomes;
  }
  let next = 0;
  const threads = Array.from({ length: Math.min(workers, jobs.length) }, () => startWorkerThread(callerUrl, workerName));
  await Promise.all(
    threads.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          const send = () => {
            const job = jobs[next];
            next += 1;
            if (job !== undefined) worker.postMessage(job);
            else void worker.terminate().then(() => resolve());
          };
          worker.on('message', (result: Outcome) => {
            outcomes.push(result);
            send();
          });
          worker.on('error', reject);
          send();
        }),
    ),
  );
  return outcomes;
}
