import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import type { Device } from '../device-kinds';
import { DeviceCard } from './device-card';

const plain = (text: string | null) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
const reading = { value: 7.1, ts: new Date().toISOString() };

describe('a device card with a « dépassement prévu »', () => {
  it('says « Dépassement prévu », keeps the reading in its usual colour and names the forecast', () => {
    const device = {
      id: '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f',
      name: 'Vitrine crèmerie',
      serial: 'VIG-00001',
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: reading.ts,
      status: 'online',
      lastSeenAt: reading.ts,
      inactivityTimeoutSeconds: 600,
      battery: 90,
      latest: { temperature: reading },
    } as unknown as Device;
    const card = (only: boolean) => (
      <ul>
        <DeviceCard
          kind="sensor"
          device={device}
          deleting={false}
          deleteDisabled={false}
          onDelete={null}
          alertOf={() => 'warning'}
          forecastOf={() => ({ label: 'prévu\u202F: +8\u202F°C vers 14\u202Fh\u202F10', only })}
        />
      </ul>
    );
    const { unmount } = renderWithProviders(card(true));
    expect(screen.getByText('Dépassement prévu')).toBeInTheDocument();
    expect(screen.queryByText('En alerte')).not.toBeInTheDocument();
    expect(plain(screen.getByTestId('device-main-value').textContent)).toBe('7,1 °C');
    expect(screen.getByTestId('device-main-value')).not.toHaveClass('text-red-300');
    expect(plain(screen.getByTestId('device-forecast').textContent)).toBe('prévu : +8 °C vers 14 h 10');
    unmount();
    // A measured alert beside it: « En alerte », the reading red, the forecast still named.
    renderWithProviders(card(false));
    expect(screen.getByText('En alerte')).toBeInTheDocument();
    expect(screen.getByTestId('device-main-value')).toHaveClass('text-red-300');
    expect(screen.getByTestId('device-forecast')).toBeInTheDocument();
  });
});
