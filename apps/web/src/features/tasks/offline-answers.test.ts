import 'fake-indexeddb/auto';
import type { Task } from '@vigie/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/render';
import { flushPendingAnswers, pendingAnswers, resetPendingAnswersForTests, type PendingAnswer } from './offline-answers';

const OWNER = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const OTHER = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
const TASK = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
const SECOND = '3d4e5f6a-7b8c-4d9e-8f0a-2b3c4d5e6f7a';
const FRIDGE = '4e5f6a7b-8c9d-4e0f-9a1b-3c4d5e6f7a8b';
const PHOTO_ITEM = '5f6a7b8c-9d0e-4f1a-8b2c-4d5e6f7a8b9c';
const PHOTO_ID = '6a7b8c9d-0e1f-4a2b-9c3d-5e6f7a8b9c0d';
const GIVEN_AT = '2026-11-23T07:12:00.000Z';

const entry = (taskId: string, overrides: Partial<PendingAnswer> = {}): PendingAnswer => ({
  taskId,
  taskName: 'Ronde d’ouverture',
  owner: OWNER,
  request: { answers: [{ itemId: FRIDGE, value: 3 }], completedAt: GIVEN_AT },
  photos: [],
  lines: ['Chambre froide : 3 °C'],
  state: 'waiting',
  ...overrides,
});

const stored = (taskId: string, completedBy: string, completedAt: string) =>
  ({ id: taskId, status: 'done', result: 'ok', completedBy, completedAt }) as unknown as Task;

type Seen = { method: string; url: string; body: unknown };
let seen: Seen[];

function serve(answer: (request: Seen) => Response | Promise<Response>) {
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    const request = { method: init?.method ?? 'GET', url, body };
    seen.push(request);
    return answer(request);
  });
}

beforeEach(() => {
  seen = [];
  resetPendingAnswersForTests();
});

afterEach(async () => {
  vi.unstubAllGlobals();
  for (const kept of await pendingAnswers.of(OWNER)) await pendingAnswers.dismiss(kept.taskId);
  resetPendingAnswersForTests();
});

describe('answers kept on the phone', () => {
  it('survive the page being closed, and leave with the moment they were given once the network is back', async () => {
    await pendingAnswers.keep(entry(TASK));
    // The app is closed and opened again: the entry is read back from IndexedDB.
    resetPendingAnswersForTests();
    expect((await pendingAnswers.of(OWNER)).map((kept) => kept.taskId)).toEqual([TASK]);
    expect(await pendingAnswers.of(OTHER)).toEqual([]);

    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await flushPendingAnswers(OWNER)).toEqual([]);
    expect(await pendingAnswers.of(OWNER)).toHaveLength(1);

    serve(({ url }) => jsonResponse(200, { task: stored(url.split('/')[3] ?? '', OWNER, GIVEN_AT) }));
    const recorded = await flushPendingAnswers(OWNER);
    expect(recorded.map((task) => task.id)).toEqual([TASK]);
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: `/api/tasks/${TASK}/complete`,
      body: { answers: [{ itemId: FRIDGE, value: 3 }], completedAt: GIVEN_AT },
    });
    expect(await pendingAnswers.of(OWNER)).toEqual([]);
  });

  it('count as sent when an earlier try was recorded but its answer never reached the phone', async () => {
    await pendingAnswers.keep(entry(TASK));
    serve(({ method }) =>
      method === 'POST'
        ? jsonResponse(409, { message: 'Cette tâche a déjà été remplie par Camille Martin (23 novembre 2026 à 8 h 12).' })
        : jsonResponse(200, { task: stored(TASK, OWNER, GIVEN_AT) }),
    );
    expect((await flushPendingAnswers(OWNER)).map((task) => task.id)).toEqual([TASK]);
    expect(await pendingAnswers.of(OWNER)).toEqual([]);
  });

  it('stay, with the server’s reason, when someone else completed the task meanwhile, until the person has read them', async () => {
    await pendingAnswers.keep(entry(TASK));
    await pendingAnswers.keep(entry(SECOND, { request: { answers: [], completedAt: '2026-11-23T07:20:00.000Z' } }));
    const refusal = 'Cette tâche a déjà été remplie par Léa Dubois (23 novembre 2026 à 8 h 05).';
    serve(({ method, url }) => {
      if (url.includes(SECOND)) return jsonResponse(200, { task: stored(SECOND, OWNER, '2026-11-23T07:20:00.000Z') });
      return method === 'POST'
        ? jsonResponse(409, { message: refusal })
        : jsonResponse(200, { task: stored(TASK, OTHER, '2026-11-23T07:05:00.000Z') });
    });
    // The refusal of the first does not hold back the second.
    expect((await flushPendingAnswers(OWNER)).map((task) => task.id)).toEqual([SECOND]);
    const [kept, ...rest] = await pendingAnswers.of(OWNER);
    expect(rest).toEqual([]);
    expect(kept).toMatchObject({ taskId: TASK, state: 'conflict', message: refusal, lines: ['Chambre froide : 3 °C'] });
    // Refused answers are not sent again.
    seen = [];
    await flushPendingAnswers(OWNER);
    expect(seen).toEqual([]);
    await pendingAnswers.dismiss(TASK);
    expect(await pendingAnswers.of(OWNER)).toEqual([]);
  });

  it('wait again when the session has ended, rather than being refused', async () => {
    await pendingAnswers.keep(entry(TASK));
    serve(() => jsonResponse(401, { message: 'Session expirée.' }));
    await flushPendingAnswers(OWNER);
    expect((await pendingAnswers.of(OWNER))[0]?.state).toBe('waiting');
  });

  it('send a photo taken offline first, and name it by the id the server gives', async () => {
    const photo = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' });
    await pendingAnswers.keep(entry(TASK, { photos: [{ itemId: PHOTO_ITEM, file: photo }] }));
    serve(({ url }) =>
      url.endsWith('/photos')
        ? jsonResponse(201, { photo: { id: PHOTO_ID, sha256: 'a'.repeat(64), size: 4 } })
        : jsonResponse(200, { task: stored(TASK, OWNER, GIVEN_AT) }),
    );
    await flushPendingAnswers(OWNER);
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      `POST /api/tasks/${TASK}/photos`,
      `POST /api/tasks/${TASK}/complete`,
    ]);
    expect(seen[1]?.body).toEqual({
      answers: [
        { itemId: FRIDGE, value: 3 },
        { itemId: PHOTO_ITEM, value: PHOTO_ID },
      ],
      completedAt: GIVEN_AT,
    });
  });
});
