import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '@/lib/auth';
import type { LiveStreamOptions } from '@/lib/live-stream';
import { fakeAuth } from '@/testing/render';
import { useLiveStream } from './use-live-stream';

const opened: LiveStreamOptions[] = [];
vi.mock('@/lib/live-stream', () => ({
  openLiveStream: (options: LiveStreamOptions) => {
    opened.push(options);
    return () => undefined;
  },
}));

afterEach(() => {
  opened.length = 0;
  vi.restoreAllMocks();
});

describe('useLiveStream', () => {
  it('reads everything again, the account included, when the server says the scope changed; a plain resync is left to the lists', () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    const refreshUser = vi.fn(async () => undefined);
    const auth = fakeAuth({ refreshUser });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>
      </QueryClientProvider>
    );
    const onMessage = vi.fn();
    renderHook(() => useLiveStream({ onMessage }), { wrapper });
    const stream = opened.at(-1);
    if (!stream) throw new Error('flux non ouvert');

    act(() => stream.onMessage({ id: null, event: 'resync', data: '{}' }));
    expect(invalidate).not.toHaveBeenCalled();
    expect(refreshUser).not.toHaveBeenCalled();

    const scope = { id: null, event: 'resync', data: JSON.stringify({ reason: 'scope' }) };
    act(() => stream.onMessage(scope));
    expect(invalidate).toHaveBeenCalledWith();
    expect(refreshUser).toHaveBeenCalledTimes(1);
    // The screens' handler still hears it, as any resync.
    expect(onMessage).toHaveBeenLastCalledWith(scope);
    expect(opened).toHaveLength(1);
  });
});
