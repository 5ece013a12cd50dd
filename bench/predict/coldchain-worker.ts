/** A thread of the coldchain evaluation (coldchain.ts): replays the files it is sent, one at a time. */
import { parentPort } from 'node:worker_threads';
import { type ColdchainJob, replayUnit } from './coldchain.ts';

parentPort?.on('message', (job: ColdchainJob) => {
  parentPort?.postMessage(replayUnit(job));
});
