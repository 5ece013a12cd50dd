import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { discardEarlyFetches } from '@/lib/early-fetch';
import { jsonResponse } from '@/testing/render';
import { taskDayWindow } from '@/features/tasks/api/task-reads';
import { startSignedInReads } from './signed-in-reads';

let calls: { url: string; authorization: string | null }[];

beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url, authorization: new Headers(init?.headers).get('Authorization') });
    return jsonResponse(200, {});
  });
});

afterEach(() => {
  discardEarlyFetches();
  vi.unstubAllGlobals();
});

describe('startSignedInReads', () => {
  it('checks the session and reads « Réseau »’s data at once, with the stored token', () => {
    startSignedInReads('/dashboard/reseau', 'stored');
    expect(calls).toEqual([
      { url: '/api/user/me', authorization: 'Bearer stored' },
      { url: '/api/overview', authorization: 'Bearer stored' },
      { url: '/api/regions', authorization: 'Bearer stored' },
    ]);
  });

  it('reads « Tâches du jour »’s day, its processes and the shops at once, the day as the screen asks for it', () => {
    startSignedInReads('/dashboard/taches', 'stored');
    const { from, to } = taskDayWindow(Date.now());
    expect(calls).toEqual([
      { url: '/api/user/me', authorization: 'Bearer stored' },
      { url: `/api/tasks?${new URLSearchParams({ from, to }).toString()}`, authorization: 'Bearer stored' },
      { url: '/api/processes', authorization: 'Bearer stored' },
      { url: '/api/sites', authorization: 'Bearer stored' },
    ]);
  });

  it('matches the address as the router does: a trailing slash, any case', () => {
    startSignedInReads('/Dashboard/Reseau/', 'stored');
    expect(calls.map((call) => call.url)).toEqual(['/api/user/me', '/api/overview', '/api/regions']);
  });

  it('checks the session alone on another signed-in page', () => {
    startSignedInReads('/dashboard', 'stored');
    expect(calls.map((call) => call.url)).toEqual(['/api/user/me']);
    discardEarlyFetches();
    startSignedInReads('/dashboard/alertes/3f2a', 'stored');
    expect(calls.map((call) => call.url)).toEqual(['/api/user/me', '/api/user/me']);
  });

  it('starts nothing without a stored token, nor on a public page', () => {
    startSignedInReads('/dashboard/reseau', null);
    startSignedInReads('/', 'stored');
    startSignedInReads('/login', 'stored');
    startSignedInReads('/dashboardx', 'stored');
    expect(calls).toEqual([]);
  });
});
