/**
 * The worker thread where pasted codecs run (codec-sandbox.ts): a codec that blocks its
 * interpreter (an allocation the engine cannot interrupt) blocks this thread only, and
 * `codec-runner.ts` ends the thread past its watchdog.
 */
import { parentPort } from 'node:worker_threads';
import { runPastedCodec } from './codec-sandbox.ts';
import type { CodecResult } from './codecs/index.ts';

export interface CodecWorkerRequest {
  id: number;
  source: string;
  bytes: Uint8Array;
  fPort: number;
  recvTime: number;
}

export interface CodecWorkerResponse {
  id: number;
  result: CodecResult;
}

parentPort?.on('message', (request: CodecWorkerRequest) => {
  void runPastedCodec(request.source, { bytes: request.bytes, fPort: request.fPort, recvTime: new Date(request.recvTime) }).then((result) =>
    parentPort?.postMessage({ id: request.id, result } satisfies CodecWorkerResponse),
  );
});
