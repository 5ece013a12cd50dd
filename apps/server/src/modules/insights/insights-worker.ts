/**
 * The worker thread where insights are computed: forecasts and detectors are CPU work, kept off the
 * thread that serves requests and ingests readings.
 */
import { parentPort } from 'node:worker_threads';
import { computeInsights, type InsightsInput } from './insights-compute.ts';

export interface WorkerRequest {
  id: number;
  input: InsightsInput;
}

export type WorkerResponse = { id: number; result: ReturnType<typeof computeInsights> } | { id: number; error: string };

parentPort?.on('message', (request: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    response = { id: request.id, result: computeInsights(request.input) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort?.postMessage(response);
});
