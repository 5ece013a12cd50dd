import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_HEADER, offlineStatus } from '@/lib/offline-status';
import { OfflineBanner } from './offline-banner';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('OfflineBanner', () => {
  it('is an empty polite status while online, and tells how old the values are offline', () => {
    render(<OfflineBanner />);
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();

    const storedAt = new Date();
    storedAt.setHours(14, 2, 0, 0);
    act(() => offlineStatus.noteAnswer(new Response('{}', { headers: { [OFFLINE_HEADER]: storedAt.toISOString() } })));
    expect(status.textContent).toBe('Hors connexion — dernières valeurs de 14\u202Fh\u202F02');

    act(() => offlineStatus.noteAnswer(new Response('{}')));
    expect(status).toBeEmptyDOMElement();
  });

  it('shows while the browser is offline, and goes once it is back', () => {
    render(<OfflineBanner />);
    const status = screen.getByRole('status');
    act(() => {
      vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
      window.dispatchEvent(new Event('offline'));
    });
    expect(status).toHaveTextContent(/^Hors connexion/);
    act(() => {
      vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(true);
      window.dispatchEvent(new Event('online'));
    });
    expect(status).toBeEmptyDOMElement();
  });
});
