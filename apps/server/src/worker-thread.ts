import { Worker } from 'node:worker_threads';

/**
 * Starts the worker thread whose script is `name` beside the calling module (`import.meta.url` of
 * the caller): the bundled server finds `<name>.js` beside itself in dist/; from the TypeScript
 * sources (tests, development) the thread first registers tsx's loader, then loads `<name>.ts`.
 */
export function startWorkerThread(callerUrl: string, name: string, workerData?: unknown): Worker {
  const fromSources = callerUrl.endsWith('.ts');
  const url = new URL(`./${name}.${fromSources ? 'ts' : 'js'}`, callerUrl);
  return fromSources
    ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`, {
        eval: true,
        workerData,
      })
    : new Worker(url, { workerData });
}
