import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../worker-thread.ts';
import { SANDBOX_LIMITS, TIME_EXCEEDED, type SandboxResult } from './codec-sandbox.ts';
import type { CodecWorkerRequest, CodecWorkerResponse } from './codec-worker.ts';
import type { CodecInput, CodecResult } from './codecs/index.ts';

/** Past this, the thread itself is ended: the interpreter could not stop the codec in time. */
const WATCHDOG_MS = 500;
/** The thread's start (the engine compiled): counted apart, never against a codec. */
const STARTUP_MS = 15_000;
const STOPPED: CodecResult = { ok: false, error: TIME_EXCEEDED };
const NNBSP = '\u202F';

/** The threads of the pool: two at least (one organization never holds them all), four at most. */
export const defaultCodecThreads = () => Math.max(2, Math.min(4, os.availableParallelism() - 1));

/** What decoding a frame gave (with the pasted style recognised), or why it was not even tried (`refused`: a full queue, a suspended codec). */
export type CodecRun = SandboxResult | { ok: false; refused: true; error: string };

export interface CodecRunnerOptions {
  /** Worker threads of the pool (`defaultCodecThreads()`). */
  threads?: number;
  /** Frames an organization may have waiting or being decoded (32); past it a frame is refused. */
  queuePerOrganization?: number;
  /** Stops in a row that suspend a codec (3), its first suspension (1 min), doubled each time up to `maxMs` (15 min). */
  suspension?: { strikes: number; firstMs: number; maxMs: number };
  /** How long an organization's share rests after one of its frames was stopped at its time (200 ms). */
  restAfterStopMs?: number;
  /** The clock of suspensions. */
  now?: () => Date;
}

/** Whose frame it is: the organization's fair share, and the codec that may be suspended (an uplink's; a trial is never suspended). */
export interface CodecRunOwner {
  organizationId: string;
  codec?: string;
}

interface Job {
  source: string;
  input: CodecInput;
  owner: CodecRunOwner;
  resolve: (result: CodecRun) => void;
}

interface Thread {
  worker: Worker;
  ready: Promise<boolean>;
  /** Its engine compiled: a frame given to it starts at once. */
  started: boolean;
}

interface Slot {
  thread: Thread | null;
  busy: boolean;
}

/** A codec's stops in a row, and its suspension. */
interface Strikes {
  strikes: number;
  until: number;
  nextMs: number;
}

const QUEUE_FULL = `Trame refusée sans être décodée${NNBSP}: `;
const queueFull = (bound: number) =>
  `${QUEUE_FULL}${bound} trames de l’organisation attendent déjà leur décodeur collé, trop lent pour le débit reçu.`;

/**
 * A failure a flood repeats at every frame (a codec stopped, a queue full): told on the device at
 * most once a minute, where one replaces the other (a suspension is told when it starts).
 */
export const isFloodError = (error: string | null): boolean =>
  error === TIME_EXCEEDED || (error !== null && error.startsWith(QUEUE_FULL) && error.endsWith('trop lent pour le débit reçu.'));

const minutes = (ms: number) => `${Math.max(1, Math.ceil(ms / 60_000))} min`;

/**
 * Pasted codecs, run one frame at a time per worker thread (`codec-worker.ts`), in a small pool:
 * the threads that answer requests and store readings never wait on a codec. Each organization has
 * its own queue, bounded; a free thread takes the next frame of the next organization in turn
 * (round robin), and no organization holds more than all threads but one, so a codec that loops
 * in one organization never makes another's frames wait for it. A codec stopped three frames in a
 * row is suspended for a while: its frames are refused without being run. A codec that holds its
 * thread past the watchdog ends it; the slot starts a new one.
 */
export function createCodecRunner(options: CodecRunnerOptions = {}) {
  const size = Math.max(1, options.threads ?? defaultCodecThreads());
  /** Threads one organization may hold at once: all but one, so that another always finds one free. */
  const perOrganization = Math.max(1, size - 1);
  const bound = Math.max(1, options.queuePerOrganization ?? 32);
  const suspension = options.suspension ?? { strikes: 3, firstMs: 60_000, maxMs: 15 * 60_000 };
  const now = () => (options.now ?? (() => new Date()))().getTime();
  const rest = Math.max(0, options.restAfterStopMs ?? 200);

  const slots: Slot[] = Array.from({ length: size }, () => ({ thread: null, busy: false }));
  /** Each organization's frames not yet given to a thread, and the organizations in turn (those with frames waiting). */
  const queues = new Map<string, Job[]>();
  const turn: string[] = [];
  const running = new Map<string, number>();
  const records = new Map<string, Strikes>();
  let nextId = 0;
  let closed = false;

  const busyOf = (organizationId: string) => running.get(organizationId) ?? 0;
  const waitingOf = (organizationId: string) => queues.get(organizationId)?.length ?? 0;
  const recordKey = (owner: CodecRunOwner) => (owner.codec === undefined ? null : `${owner.organizationId}|${owner.codec}`);

  /** Why a codec's frame is refused now, or null: suspended after stopping `strikes` frames in a row. */
  function suspendedFor(owner: CodecRunOwner): string | null {
    const key = recordKey(owner);
    const record = key ? records.get(key) : undefined;
    const left = record ? record.until - now() : 0;
    if (left <= 0) return null;
    return `Trame refusée sans être décodée${NNBSP}: son décodeur a dépassé ${SANDBOX_LIMITS.timeMs} ms sur ${suspension.strikes} trames de suite, il est suspendu encore ${minutes(left)} (puis essayé de nouveau).`;
  }

  /** A frame decoded, or stopped: a stop is a strike, and enough in a row suspend the codec (longer each time). */
  function note(owner: CodecRunOwner, result: CodecResult): void {
    const key = recordKey(owner);
    if (!key) return;
    if (result.ok || result.error !== TIME_EXCEEDED) {
      records.delete(key);
      return;
    }
    const record = records.get(key) ?? { strikes: 0, until: 0, nextMs: suspension.firstMs };
    record.strikes += 1;
    if (record.strikes >= suspension.strikes) {
      record.until = now() + record.nextMs;
      record.nextMs = Math.min(record.nextMs * 2, suspension.maxMs);
    }
    if (records.size > 10_000) records.clear();
    records.set(key, record);
  }

  /** A slot's thread, started on first use; `ready` once its engine is compiled (false if it never was). */
  function threadOf(slot: Slot): Thread {
    if (slot.thread) return slot.thread;
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
    const started: Thread = { worker, ready, started: false };
    void ready.then((up) => (started.started = up));
    const forget = () => {
      if (slot.thread === started) slot.thread = null;
    };
    worker.on('error', forget);
    worker.on('exit', forget);
    slot.thread = started;
    return started;
  }

  async function runOn(slot: Slot, source: string, input: CodecInput): Promise<SandboxResult> {
    const started = threadOf(slot);
    if (!(await started.ready)) {
      if (slot.thread === started) slot.thread = null;
      void started.worker.terminate();
      return { ok: false, error: 'Le bac à sable des décodeurs n’a pas pu démarrer : réessayez dans un instant.' };
    }
    const { worker } = started;
    const id = (nextId += 1);
    return new Promise<SandboxResult>((resolve) => {
      const finish = (result: SandboxResult) => {
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
        if (slot.thread === started) slot.thread = null;
        void worker.terminate();
        finish(STOPPED);
      }, WATCHDOG_MS);
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      const request: CodecWorkerRequest = { id, source, bytes: input.bytes, fPort: input.fPort, recvTime: input.recvTime.getTime() };
      worker.postMessage(request);
    });
  }

  /** The next frame to decode: of the first organization in turn below its share of threads, which goes to the back. */
  function next(): Job | undefined {
    for (let index = 0; index < turn.length; index += 1) {
      const organizationId = turn[index] as string;
      if (busyOf(organizationId) >= perOrganization) continue;
      const queue = queues.get(organizationId) ?? [];
      const job = queue.shift();
      turn.splice(index, 1);
      if (queue.length > 0) turn.push(organizationId);
      else queues.delete(organizationId);
      if (job) return job;
      index -= 1;
    }
    return undefined;
  }

  /** Gives waiting frames to free threads, as long as there are both. */
  function dispatch(): void {
    // Threads already started first: a thread that a codec's watchdog ended restarts while the others work.
    const order = [...slots].sort((a, b) => Number(b.thread?.started ?? false) - Number(a.thread?.started ?? false));
    for (const slot of order) {
      if (closed) return;
      if (slot.busy) continue;
      let job = next();
      // A codec suspended while its frames waited: they are refused as they come up, never run.
      while (job) {
        const refusal = suspendedFor(job.owner);
        if (!refusal) break;
        job.resolve({ ok: false, refused: true, error: refusal });
        job = next();
      }
      if (!job) return;
      const { organizationId } = job.owner;
      slot.busy = true;
      running.set(organizationId, busyOf(organizationId) + 1);
      const taken = job;
      void runOn(slot, taken.source, taken.input).then(async (result) => {
        note(taken.owner, result);
        taken.resolve(result);
        // A frame stopped at its time: its organization's share rests a while, so that codecs that
        // loop take a fifth of a thread at most, not all of it.
        const share = async () => {
          if (!result.ok && result.error === TIME_EXCEEDED && rest > 0 && !closed) {
            await new Promise((resolve) => setTimeout(resolve, rest).unref());
          }
          const busy = busyOf(organizationId) - 1;
          if (busy > 0) running.set(organizationId, busy);
          else running.delete(organizationId);
          dispatch();
        };
        // A thread this frame ended (past its watchdog) is restarted before its slot takes another
        // frame: no frame waits on a start-up while a started thread is there.
        const thread = async () => {
          if (!slot.thread && !closed) await threadOf(slot).ready;
          slot.busy = false;
          dispatch();
        };
        await Promise.all([share(), thread()]);
      });
    }
  }

  /** Why a frame of this owner would be refused now (its codec suspended, its organization's queue full), or null. */
  function refusal(owner: CodecRunOwner): string | null {
    return suspendedFor(owner) ?? (waitingOf(owner.organizationId) + busyOf(owner.organizationId) >= bound ? queueFull(bound) : null);
  }

  return {
    /** Why a frame would be refused now, or null: asked before looking anything up, a flood costs no more than this. */
    refusal,
    /** Decodes one frame with a pasted codec, in its organization's turn; refused at once past its queue or while its codec is suspended. Never rejects. */
    run(source: string, input: CodecInput, owner: CodecRunOwner): Promise<CodecRun> {
      const refused = refusal(owner);
      if (refused) return Promise.resolve({ ok: false, refused: true, error: refused });
      const { organizationId } = owner;
      // Every thread of the pool is started with the first frame: a flood's stopped thread never makes another organization wait for a start-up.
      for (const slot of slots) if (!slot.busy) threadOf(slot);
      return new Promise<CodecRun>((resolve) => {
        const queue = queues.get(organizationId);
        if (queue) queue.push({ source, input, owner, resolve });
        else {
          queues.set(organizationId, [{ source, input, owner, resolve }]);
          turn.push(organizationId);
        }
        dispatch();
      });
    },
    async close(): Promise<void> {
      closed = true;
      const stopping = slots.map((slot) => slot.thread).filter((thread): thread is Thread => thread !== null);
      for (const slot of slots) slot.thread = null;
      for (const queue of queues.values())
        for (const job of queue) job.resolve({ ok: false, error: 'Le décodeur a été arrêté avant d’avoir fini.' });
      queues.clear();
      turn.length = 0;
      await Promise.all(stopping.map((thread) => thread.worker.terminate()));
    },
  };
}

export type CodecRunner = ReturnType<typeof createCodecRunner>;
