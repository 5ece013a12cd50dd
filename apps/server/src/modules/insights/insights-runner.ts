import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../worker-thread.ts';
import { computeInsights, type InsightsInput, type InsightsResult } from './insights-compute.ts';
import type { WorkerRequest, WorkerResponse, WorkerSettings } from './insights-worker.ts';

/**
 * Who waits for the figures: a person on a sensor's page (`interactive`), or nobody, during the
 * background pass (`background`).
 */
export type InsightsLane = 'interactive' | 'background';

export interface InsightsRunner {
  compute(input: InsightsInput, lane?: InsightsLane): Promise<InsightsResult>;
  close(): Promise<void>;
}

interface Logger {
  warn: (object: object, message: string) => void;
}

interface Lane {
  compute(input: InsightsInput): Promise<InsightsResult>;
  close(): Promise<void>;
}

/** In-process, after the current task, so a request in flight is answered first. */
function computeSoon(input: InsightsInput): Promise<InsightsResult> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      try {
        resolve(computeInsights(input));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    }),
  );
}

/** One worker thread, started on first use, that lets the process exit while it has nothing to do. */
function createLane(settings: WorkerSettings, options: { logger: Logger; useWorker?: boolean }): Lane {
  let worker: Worker | null = null;
  let broken = options.useWorker === false;
  let nextId = 1;
  const pending = new Map<number, { resolve: (result: InsightsResult) => void; reject: (error: Error) => void }>();

  function failAll(error: Error) {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  }

  function start(): Worker | null {
    if (worker || broken) return worker;
    try {
      const created = startWorkerThread(import.meta.url, 'insights-worker', settings);
      created.unref();
      created.on('message', (response: WorkerResponse) => {
        const waiting = pending.get(response.id);
        if (!waiting) return;
        pending.delete(response.id);
        if ('error' in response) waiting.reject(new Error(response.error));
        else waiting.resolve(response.result);
      });
      created.on('error', (error) => {
        options.logger.warn({ err: error }, 'Fil de calcul des analyses en échec : calcul dans le processus principal');
        broken = true;
        worker = null;
        failAll(error);
      });
      created.on('exit', (code) => {
        if (worker === created) worker = null;
        if (pending.size > 0) failAll(new Error(`Fil de calcul des analyses arrêté (code ${code})`));
      });
      worker = created;
    } catch (error) {
      options.logger.warn({ err: error }, 'Fil de calcul des analyses indisponible : calcul dans le processus principal');
      broken = true;
    }
    return worker;
  }

  return {
    compute(input) {
      const thread = start();
      if (!thread) return computeSoon(input);
      const id = nextId++;
      return new Promise<InsightsResult>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread.ref();
        const request: WorkerRequest = { id, input };
        thread.postMessage(request, [
          input.readings.ts.buffer,
          input.readings.values.buffer,
          input.battery.ts.buffer,
          input.battery.values.buffer,
        ]);
      }).finally(() => {
        if (pending.size === 0) worker?.unref();
      });
    },
    async close() {
      const thread = worker;
      worker = null;
      broken = true;
      failAll(new Error('Analyses arrêtées'));
      if (thread) await thread.terminate();
    },
  };
}

/**
 * Computes insights in worker threads, so a forecast never holds up a request or an ingestion.
 * Two threads: the background pass's runs at the lowest priority and gives way to ingestion; the
 * one computing for a person waiting on a sensor's page keeps the normal priority, so a busy
 * processor does not make that person wait behind the background work. The bundled server finds
 * the worker beside itself (dist/insights-worker.js); from the TypeScript sources (tests,
 * development) it runs through tsx. Should a thread fail to start, the work is done in-process
 * between other tasks, and said once in the log.
 */
export function createInsightsRunner(options: { logger: Logger; useWorker?: boolean }): InsightsRunner {
  const lanes: Record<InsightsLane, Lane> = {
    interactive: createLane({ lowPriority: false }, options),
    background: createLane({ lowPriority: true }, options),
  };
  return {
    compute: (input, lane = 'interactive') => lanes[lane].compute(input),
    async close() {
      await Promise.all([lanes.interactive.close(), lanes.background.close()]);
    },
  };
}
