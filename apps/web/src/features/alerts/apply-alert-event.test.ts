import { QueryClient } from '@tanstack/react-query';
import type { Alert } from '@vigie/contract';
import { expect, it } from 'vitest';
import { alertKeys } from './alert-keys';
import { applyAlertEvent } from './apply-alert-event';

const alert = {
  id: '00000000-0000-4000-8000-000000000001',
  sensorId: '00000000-0000-4000-8000-000000000002',
  status: 'open',
  key: 'temperature',
  peak: 4.04,
  last: 4.04,
  events: [],
} as unknown as Alert;

it('takes an alert’s new peak and latest value from the stream, not only its opening', () => {
  const client = new QueryClient();
  const owner = 'user-1';
  applyAlertEvent(client, owner, { event: 'alert', data: JSON.stringify({ action: 'opened', alert }), id: '1' });
  expect(client.getQueryData<Alert>(alertKeys.detail(owner, alert.id))?.peak).toBe(4.04);
  const update = { ...alert, peak: 4.7, last: 4.3 };
  expect(
    applyAlertEvent(client, owner, { event: 'alert', data: JSON.stringify({ action: 'updated', alert: update }), id: '2' })?.action,
  ).toBe('updated');
  expect(client.getQueryData<Alert>(alertKeys.detail(owner, alert.id))).toMatchObject({ peak: 4.7, last: 4.3 });
});
