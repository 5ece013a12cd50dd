import type { CompleteTaskRequest, Task } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { ApiError, call } from '@/lib/api-client';
import { uploadTaskPhoto } from './api/task-queries';

/**
 * Answers given on a phone without network (a cold room, a basement): kept in the browser's
 * IndexedDB, which the installed app keeps between launches, and sent with the time they were given
 * once the network is back. One entry per task answered; an entry leaves the phone only when the
 * server has recorded it, or when the person has read why it could not be (a conflict: the task was
 * completed meanwhile, or is no longer open). Nothing is dropped without being shown.
 */

/** A photo taken offline: its bytes, sent before the answers, then named by the id the server gives. */
export type PendingPhoto = { itemId: string; file: Blob };

export type PendingAnswer = {
  /** The task answered: one entry per task. */
  taskId: string;
  taskName: string;
  /** The member who gave the answers: only their session sends them. */
  owner: string;
  /** The answers, with `completedAt` the moment they were given; photo items are filled from `photos`. */
  request: CompleteTaskRequest & { completedAt: string };
  photos: PendingPhoto[];
  /** The answers as the person gave them (« Vitrine : 3,5 °C »), to show them back if they are refused. */
  lines: string[];
  /** `conflict`: the server refused them; `message` says why, until the person dismisses it. */
  state: 'waiting' | 'conflict';
  message?: string;
};

/** What sending one entry came to. */
export type SendOutcome = { kind: 'sent'; task: Task } | { kind: 'offline' } | { kind: 'refused'; message: string; status: number };

const isNetworkFailure = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * Sends answers as the server expects them: the photos taken offline first (each becomes the id the
 * server gives it), then the completion with the moment the answers were given. A completion refused
 * as already done counts as sent when it is this very one, recorded by an earlier try whose answer
 * never reached the phone (the same member, the same moment): a replay stores nothing twice.
 */
export async function sendAnswers(entry: Pick<PendingAnswer, 'taskId' | 'owner' | 'request' | 'photos'>): Promise<SendOutcome> {
  try {
    const answers = [...entry.request.answers];
    for (const photo of entry.photos) {
      const uploaded = await uploadTaskPhoto(entry.taskId, photo.file);
      const at = answers.findIndex((answer) => answer.itemId === photo.itemId);
      const answer = { itemId: photo.itemId, value: uploaded.id };
      if (at >= 0) answers[at] = answer;
      else answers.push(answer);
    }
    const data = await call(endpoints.tasks.complete, {
      params: { id: entry.taskId },
      body: { ...entry.request, answers },
    });
    if (!data?.task) return { kind: 'refused', status: 200, message: 'Réponse du serveur illisible.' };
    return { kind: 'sent', task: data.task };
  } catch (error) {
    if (isNetworkFailure(error)) return { kind: 'offline' };
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 409) {
      const recorded = await alreadyRecorded(entry).catch(() => null);
      if (recorded) return { kind: 'sent', task: recorded };
    }
    return { kind: 'refused', status: error.status, message: error.message };
  }
}

/** The task as stored, when it holds exactly these answers' completion (same member, same moment). */
async function alreadyRecorded(entry: Pick<PendingAnswer, 'taskId' | 'owner' | 'request'>): Promise<Task | null> {
  const data = await call(endpoints.tasks.get, { params: { id: entry.taskId } });
  const task = data?.task;
  if (!task?.completedAt || task.completedBy !== entry.owner) return null;
  return Date.parse(task.completedAt) === Date.parse(entry.request.completedAt) ? task : null;
}

/** Where the entries live: IndexedDB in a browser, memory where there is none (a page without storage). */
type Backend = {
  all: () => Promise<PendingAnswer[]>;
  put: (entry: PendingAnswer) => Promise<void>;
  remove: (taskId: string) => Promise<void>;
};

function indexedDbBackend(store: UseStore): Backend {
  return {
    all: async () => (await entries<string, PendingAnswer>(store)).map(([, entry]) => entry),
    put: (entry) => set(entry.taskId, entry, store),
    remove: (taskId) => del(taskId, store),
  };
}

function memoryBackend(): Backend {
  const kept = new Map<string, PendingAnswer>();
  return {
    all: () => Promise.resolve([...kept.values()]),
    put: (entry) => {
      kept.set(entry.taskId, entry);
      return Promise.resolve();
    },
    remove: (taskId) => {
      kept.delete(taskId);
      return Promise.resolve();
    },
  };
}

let backend: Backend | null = null;
const storage = (): Backend =>
  (backend ??= typeof indexedDB === 'undefined' ? memoryBackend() : indexedDbBackend(createStore('vigie-taches', 'reponses')));

const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

export const pendingAnswers = {
  /** The entries of one member, oldest first. */
  async of(owner: string): Promise<PendingAnswer[]> {
    const all = await storage().all();
    return all.filter((entry) => entry.owner === owner).sort((a, b) => a.request.completedAt.localeCompare(b.request.completedAt));
  },
  async keep(entry: PendingAnswer): Promise<void> {
    await storage().put(entry);
    changed();
  },
  /** The person has read why an entry was refused: it leaves the phone. */
  async dismiss(taskId: string): Promise<void> {
    await storage().remove(taskId);
    changed();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

let flushing: Promise<Task[]> | null = null;

/**
 * Sends the member's waiting entries, oldest first, one at a time; stops at the first network
 * failure (the rest wait with it). Sent ones leave the phone; refused ones stay, marked with the
 * server's reason, until dismissed. A session that has ended (401) leaves them all waiting. One
 * flush at a time per page; another tab sending the same entry meanwhile is recognised as a replay.
 * Resolves with the tasks recorded.
 */
export function flushPendingAnswers(owner: string): Promise<Task[]> {
  flushing ??= (async () => {
    const recorded: Task[] = [];
    try {
      for (const entry of await pendingAnswers.of(owner)) {
        if (entry.state !== 'waiting') continue;
        const outcome = await sendAnswers(entry);
        if (outcome.kind === 'offline') break;
        if (outcome.kind === 'sent') {
          recorded.push(outcome.task);
          await pendingAnswers.dismiss(entry.taskId);
          continue;
        }
        if (outcome.status === 401 || outcome.status >= 500 || outcome.status === 429) break;
        await pendingAnswers.keep({ ...entry, state: 'conflict', message: outcome.message });
      }
    } finally {
      flushing = null;
    }
    return recorded;
  })();
  return flushing;
}

/** For tests: forgets the storage chosen, so that a fresh IndexedDB is opened. */
export function resetPendingAnswersForTests(): void {
  backend = null;
  flushing = null;
}
