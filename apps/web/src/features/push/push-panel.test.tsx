import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { PushPanel } from './push-panel';
import { PUSH_MESSAGES } from './push-subscription';

const plain = (text: string | null) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');

/** A browser whose push machinery does what `subscribe` says; the person answers `permission`. */
function browser({ permission, subscribe }: { permission: NotificationPermission; subscribe: () => Promise<PushSubscription> }) {
  const registration = { pushManager: { getSubscription: async () => null, subscribe } };
  vi.stubGlobal('isSecureContext', true);
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal(
    'Notification',
    Object.assign(function Notification() {}, { permission: 'default', requestPermission: async () => permission }),
  );
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      register: async () => registration,
      getRegistration: async () => registration,
      ready: Promise.resolve(registration),
      controller: null,
      addEventListener: () => undefined,
    },
  });
  vi.stubGlobal('fetch', async () => jsonResponse(200, { publicKey: 'BElVaVZpZ2ll' }));
}

beforeEach(() => vi.useRealTimers());
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('turning pushed alerts on', () => {
  it('says in French what the browser refused and what to do, never « Registration failed - permission denied »', async () => {
    browser({
      permission: 'granted',
      subscribe: async () => {
        throw new DOMException('Registration failed - permission denied', 'NotAllowedError');
      },
    });
    renderWithProviders(<PushPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Recevoir les alertes sur cet appareil' }));
    const alert = await screen.findByRole('alert');
    expect(plain(alert.textContent)).toBe(plain(PUSH_MESSAGES.refused));
    expect(alert.textContent).not.toMatch(/Registration failed/);
  });

  it('says what to do when the person closed the browser’s question without answering', async () => {
    browser({ permission: 'default', subscribe: async () => ({}) as PushSubscription });
    renderWithProviders(<PushPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Recevoir les alertes sur cet appareil' }));
    expect(plain((await screen.findByRole('alert')).textContent)).toContain('Vous n’avez pas répondu à la demande du navigateur');
  });

  it('tells what is going on while the browser subscribes, and what to do when it never answers', async () => {
    browser({ permission: 'granted', subscribe: () => new Promise<PushSubscription>(() => undefined) });
    renderWithProviders(<PushPanel />);
    const button = await screen.findByRole('button', { name: 'Recevoir les alertes sur cet appareil' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await userEvent.click(button);
    expect(plain(screen.getByTestId('push-panel').textContent)).toContain('Activation en cours');
    await vi.advanceTimersByTimeAsync(10_001);
    expect(plain((await screen.findByRole('alert')).textContent)).toBe(plain(PUSH_MESSAGES.unreachable));
  });
});
