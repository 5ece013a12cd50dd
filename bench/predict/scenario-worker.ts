/** A thread of the scenario evaluation (evaluate.ts): replays the runs it is sent, one at a time. */
import { parentPort } from 'node:worker_threads';
import { replayScenario, type ScenarioJob } from './evaluate.ts';

parentPort?.on('message', (job: ScenarioJob) => {
  parentPort?.postMessage(replayScenario(job));
});
