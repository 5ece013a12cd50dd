import { describe, expect, it } from 'vitest';
import { deviceStatusAt } from './device-status';

const now = Date.parse('2024-06-01T12:00:00Z');

describe('deviceStatusAt', () => {
  it('is never connected without a last reading', () => {
    expect(deviceStatusAt({ status: 'never', lastSeenAt: null, inactivityTimeoutSeconds: 600 }, now)).toBe('never');
  });

  it('is online while the silence is shorter than the inactivity delay', () => {
    const device = { status: 'online' as const, lastSeenAt: '2024-06-01T11:55:00Z', inactivityTimeoutSeconds: 600 };
    expect(deviceStatusAt(device, now)).toBe('online');
  });

  it('goes offline on the client as soon as the delay has passed, before the server says so', () => {
    const device = { status: 'online' as const, lastSeenAt: '2024-06-01T11:59:00Z', inactivityTimeoutSeconds: 30 };
    expect(deviceStatusAt(device, now)).toBe('offline');
  });

  it('comes back online when a fresh reading arrives although the server said offline', () => {
    const device = { status: 'offline' as const, lastSeenAt: '2024-06-01T11:59:50Z', inactivityTimeoutSeconds: 30 };
    expect(deviceStatusAt(device, now)).toBe('online');
  });
});
