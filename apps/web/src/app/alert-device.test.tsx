import type { Alert, DeviceKind } from '@vigie/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AlertDetail } from '@/features/alerts/components/alert-detail';
import { renderWithProviders } from '@/testing/render';
import { alertDeviceKind, alertDeviceLink } from './alert-device';

const GATEWAY = '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b';
const SENSOR = '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f';
const from = { path: '/dashboard/alertes/0b9f2c4e-6d8a-4b1c-9e3f-5a7b9c1d3e5f', label: 'Alerte' };

/** An open « hors ligne » alert about a silent LoRaWAN gateway, as the server tells it. */
const gatewayAlert: Alert = {
  id: '0b9f2c4e-6d8a-4b1c-9e3f-5a7b9c1d3e5f',
  ruleId: 'a1a1a1a1-1111-4111-8111-111111111111',
  sensorId: GATEWAY,
  deviceKind: 'emitter',
  siteId: '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
  status: 'open',
  severity: 'warning',
  key: null,
  openedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  acknowledgedAt: null,
  acknowledgedBy: null,
  resolvedAt: null,
  resolution: null,
  peak: null,
  last: null,
  events: [{ type: 'opened', at: new Date(Date.now() - 5 * 60_000).toISOString() }],
};
const { deviceKind: _kind, ...withoutKind } = gatewayAlert;
const sensorAlert: Alert = { ...withoutKind, sensorId: SENSOR };

const lists: Record<DeviceKind, string[]> = { emitter: [GATEWAY], sensor: [SENSOR] };
const listed = (kind: DeviceKind, id: string) => lists[kind].includes(id);

describe('the device an alert is about', () => {
  it('is a sensor unless the alert says a transmitter', () => {
    expect(alertDeviceKind(gatewayAlert)).toBe('emitter');
    expect(alertDeviceKind(sensorAlert)).toBe('sensor');
  });

  it('links a transmitter’s alert to the transmitter’s page, and a sensor’s to the sensor’s, both leading back to the alert', () => {
    expect(alertDeviceLink(gatewayAlert, listed, from)).toEqual({ to: `/dashboard/emetteurs/${GATEWAY}`, state: { from } });
    expect(alertDeviceLink(sensorAlert, listed, from)).toEqual({ to: `/dashboard/capteurs/${SENSOR}`, state: { from } });
  });

  it('links nowhere once the device is gone, and never to a sensor page for a transmitter', () => {
    expect(alertDeviceLink(gatewayAlert, () => false, from)).toBeNull();
    expect(alertDeviceLink(gatewayAlert, (kind, id) => kind === 'sensor' && id === GATEWAY, from)).toBeNull();
  });

  it('shows a silent transmitter’s alert with its name, a link to its page, and no curve', () => {
    const link = alertDeviceLink(gatewayAlert, listed, from);
    // A chart is given: the page still draws none, a silent transmitter having no measure.
    const chart = () => <div data-testid="fake-chart" />;
    renderWithProviders(
      <AlertDetail
        alert={gatewayAlert}
        rule={undefined}
        sensorName="Passerelle 6c2a11"
        sensorLink={link}
        siteName="Magasin de Brest"
        who={() => null}
        chart={chart}
      />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Passerelle 6c2a11' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voir l’émetteur' })).toHaveAttribute('href', `/dashboard/emetteurs/${GATEWAY}`);
    expect(screen.queryByRole('link', { name: 'Voir le capteur' })).not.toBeInTheDocument();
    expect(screen.getByTestId('alert-value')).toHaveTextContent('Hors ligne');
    expect(screen.queryByText('Courbe')).not.toBeInTheDocument();
    expect(screen.queryByTestId('fake-chart')).not.toBeInTheDocument();
  });
});
