/**
 * The worker thread where pasted codecs run (codec-sandbox.ts): a codec that blocks its
 * interpreter (an allocation the engine cannot interrupt) blocks this thread only, and
 * `codec-runner.ts` ends the thread past its watchdog.
 */
import { parentPort } from 'node:worker_threads';
import { quickJS, runPastedCodec, type SandboxResult } from './codec-sandbox.ts';

export interface CodecWorkerRequest {
  id: number;
  source: string;
  bytes: Uint8Array;
  fPort: number;
  recvTime: number;
}

export type CodecWorkerResponse = { id: number; result: SandboxResult } | { ready: true };

// The engine is compiled before the first frame: its start-up does not count against a codec's time.
void quickJS().then(() => parentPort?.postMessage({ ready: true } satisfies CodecWorkerResponse));

parentPort?.on('message', (request: CodecWorkerRequest) => {
  void runPastedCodec(request.source, { bytes: request.bytes, fPort: request.fPort, recvTime: new Date(request.recvTime) }).then((result) =>
    parentPort?.postMessage({ id: request.id, result } satisfies CodecWorkerResponse),
  );
});
