import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_HEADER, offlineStatus } from '@/lib/offline-status';
import { useReadAgainWhenBack } from './use-read-again-when-back';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('useReadAgainWhenBack', () => {
  it('reads every list again once the server answers after answers came from the store, and only then', () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    renderHook(() => useReadAgainWhenBack(), { wrapper });

    act(() => offlineStatus.noteAnswer(new Response('{}')));
    expect(invalidate).not.toHaveBeenCalled();
    act(() => offlineStatus.noteAnswer(new Response('{}', { headers: { [OFFLINE_HEADER]: new Date().toISOString() } })));
    expect(invalidate).not.toHaveBeenCalled();
    act(() => offlineStatus.noteAnswer(new Response('{}')));
    expect(invalidate).toHaveBeenCalledTimes(1);
    act(() => offlineStatus.noteAnswer(new Response('{}')));
    expect(invalidate).toHaveBeenCalledTimes(1);
  });
});
