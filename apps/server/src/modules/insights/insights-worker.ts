/**
 * The worker thread where insights are computed: forecasts and detectors are CPU work, kept off the
 * thread that serves requests and ingests readings.
 */
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { computeInsights, type InsightsInput } from './insights-compute.ts';

export interface WorkerRequest {
  id: number;
  input: InsightsInput;
}

/** Given to the thread when it starts. */
export interface WorkerSettings {
  /** The background pass's thread: gives the processor way to everything else. */
  lowPriority: boolean;
}

export type WorkerResponse = { id: number; result: ReturnType<typeof computeInsights> } | { id: number; error: string };

const settings = workerData as WorkerSettings | undefined;

// Background work gives way: on Linux the nice value is per thread, so only this thread yields the
// processor to the ones that ingest readings and answer requests. Elsewhere, nothing changes.
if (settings?.lowPriority) {
  try {
    os.setPriority(19);
  } catch {
    // Not permitted here: the analysis runs at normal priority.
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    response = { id: request.id, result: computeInsights(request.input) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort?.postMessage(response);
});
