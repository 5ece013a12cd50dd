import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../worker-thread.ts';
import { SANDBOX_LIMITS } from './codec-sandbox.ts';
import type { CodecWorkerRequest, CodecWorkerResponse } from './codec-worker.ts';
import type { CodecInput, CodecResult } from './codecs/index.ts';

/** Past this, the thread itself is ended: the interpreter could not stop the codec in time. */
const WATCHDOG_MS = 500;
/** The thread's start (the engine compiled): counted apart, never against a codec. */
const STARTUP_MS = 15_000;
const STOPPED: CodecResult = { ok: false, error: `Le décodeur a dépassé ${SANDBOX_LIMITS.timeMs} ms sur cette trame : il a été arrêté.` };

/**
 * Pasted codecs, run one frame at a time in a thread of their own (`codec-worker.ts`), started on
 * first use: the threads that answer requests and store readings never wait on a codec. A codec
 * that holds the thread past the watchdog ends it; the next frame starts a new one.
 */
export function createCodecRunner() {
  let current: { worker: Worker; ready: Promise<boolean> } | null = null;
  let nextId = 0;
  let chain: Promise<unknown> = Promise.resolve();

  /** The codecs' thread, started on first use; `ready` once its engine is compiled (false if it never was). */
  function thread(): { worker: Worker; ready: Promise<boolean> } {
    if (current) return current;
    const worker = startWorkerThread(import.meta.url, 'codec-worker');
    worker.unref();
    const ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), STARTUP_MS);
      const onMessage = (message: CodecWorkerResponse) => {
        if (!('ready' in message)) return;
        clearTimeout(timer);
        worker.off('message', onMessage);
        resolve(true);
      };
      worker.on('message', onMessage);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    const started = { worker, ready };
    const forget = () => {
      if (current === started) current = null;
    };
    worker.on('error', forget);
    worker.on('exit', forget);
    current = started;
    return started;
  }

  async function runOne(source: string, input: CodecInput): Promise<CodecResult> {
    const started = thread();
    if (!(await started.ready)) {
      if (current === started) current = null;
      void started.worker.terminate();
      return { ok: false, error: 'Le bac à sable des décodeurs n’a pas pu démarrer : réessayez dans un instant.' };
    }
    const { worker } = started;
    const id = (nextId += 1);
    return new Promise<CodecResult>((resolve) => {
      const finish = (result: CodecResult) => {
        clearTimeout(watchdog);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(result);
      };
      const onMessage = (message: CodecWorkerResponse) => {
        if ('id' in message && message.id === id) finish(message.result);
      };
      const onExit = () => finish({ ok: false, error: 'Le décodeur a été arrêté avant d’avoir fini.' });
      const watchdog = setTimeout(() => {
        if (current === started) current = null;
        void worker.terminate();
        finish(STOPPED);
      }, WATCHDOG_MS);
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      const request: CodecWorkerRequest = { id, source, bytes: input.bytes, fPort: input.fPort, recvTime: input.recvTime.getTime() };
      worker.postMessage(request);
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
      const stopping = current;
      current = null;
      await stopping?.worker.terminate();
    },
  };
}

export type CodecRunner = ReturnType<typeof createCodecRunner>;
