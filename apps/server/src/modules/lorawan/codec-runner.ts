import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../worker-thread.ts';
import { SANDBOX_LIMITS } from './codec-sandbox.ts';
import type { CodecWorkerRequest, CodecWorkerResponse } from './codec-worker.ts';
import type { CodecInput, CodecResult } from './codecs/index.ts';

/** Past this, the thread itself is ended: the interpreter could not stop the codec in time. */
const WATCHDOG_MS = 500;
const STOPPED: CodecResult = { ok: false, error: `Le décodeur a dépassé ${SANDBOX_LIMITS.timeMs} ms sur cette trame : il a été arrêté.` };

/**
 * Pasted codecs, run one frame at a time in a thread of their own (`codec-worker.ts`), started on
 * first use: the threads that answer requests and store readings never wait on a codec. A codec
 * that holds the thread past the watchdog ends it; the next frame starts a new one.
 */
export function createCodecRunner() {
  let worker: Worker | null = null;
  let nextId = 0;
  let chain: Promise<unknown> = Promise.resolve();

  function thread(): Worker {
    if (worker) return worker;
    const started = startWorkerThread(import.meta.url, 'codec-worker');
    started.unref();
    started.on('error', () => {
      if (worker === started) worker = null;
    });
    started.on('exit', () => {
      if (worker === started) worker = null;
    });
    worker = started;
    return started;
  }

  function runOne(source: string, input: CodecInput): Promise<CodecResult> {
    const current = thread();
    const id = (nextId += 1);
    return new Promise<CodecResult>((resolve) => {
      const finish = (result: CodecResult) => {
        clearTimeout(watchdog);
        current.off('message', onMessage);
        current.off('exit', onExit);
        resolve(result);
      };
      const onMessage = (message: CodecWorkerResponse) => {
        if (message.id === id) finish(message.result);
      };
      const onExit = () => finish({ ok: false, error: 'Le décodeur a été arrêté avant d’avoir fini.' });
      const watchdog = setTimeout(() => {
        if (worker === current) worker = null;
        void current.terminate();
        finish(STOPPED);
      }, WATCHDOG_MS);
      current.on('message', onMessage);
      current.on('exit', onExit);
      const request: CodecWorkerRequest = { id, source, bytes: input.bytes, fPort: input.fPort, recvTime: input.recvTime.getTime() };
      current.postMessage(request);
    });
  }

  return {
    /** Decodes one frame with a pasted codec; frames wait their turn. Never rejects. */
    run(source: string, input: CodecInput): Promise<CodecResult> {
      const result = chain.then(() => runOne(source, input));
      chain = result.catch(() => undefined);
      return result;
    },
    async close(): Promise<void> {
      await worker?.terminate();
      worker = null;
    },
  };
}

export type CodecRunner = ReturnType<typeof createCodecRunner>;
