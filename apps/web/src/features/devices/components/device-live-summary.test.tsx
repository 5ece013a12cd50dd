import { screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import type { Device } from '../device-kinds';
import { DeviceLiveSummary } from './device-live-summary';

const plain = (text: string | null) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');

it('reads the second value as « · Humidité : 80 % », never « Humidité : · 80 % »', () => {
  const ts = new Date().toISOString();
  const device = {
    id: '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f',
    name: 'Chambre froide',
    serial: 'VIG-00002',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: ts,
    status: 'online',
    lastSeenAt: ts,
    inactivityTimeoutSeconds: 600,
    battery: 90,
    latest: { temperature: { value: 3.2, ts }, humidity: { value: 80, ts } },
  } as unknown as Device;
  renderWithProviders(<DeviceLiveSummary device={device} />);
  expect(plain(screen.getByTestId('device-second-value').textContent)).toBe('· Humidité : 80 %');
});
