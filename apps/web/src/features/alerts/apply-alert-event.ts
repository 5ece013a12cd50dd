import type { QueryClient } from '@tanstack/react-query';
import type { Alert, AlertStreamEvent } from '@vigie/contract';
import type { SseMessage } from '@/lib/sse-parser';
import { alertKeys } from './alert-keys';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isAlertEvent(data: unknown): data is AlertStreamEvent {
  if (!isObject(data) || !isObject(data['alert'])) return false;
  const alert = data['alert'];
  return (
    ['opened', 'updated', 'acknowledged', 'action', 'resolved'].includes(String(data['action'])) &&
    typeof alert['id'] === 'string' &&
    typeof alert['sensorId'] === 'string' &&
    ['open', 'acknowledged', 'resolved'].includes(String(alert['status'])) &&
    Array.isArray(alert['events'])
  );
}

/**
 * An `alert` event of the live stream: the alert's page shows it at once, and every list of
 * alerts is read again (a status changes which list it belongs to). Returns the event, for a toast.
 */
export function applyAlertEvent(queryClient: QueryClient, owner: string, message: SseMessage): AlertStreamEvent | null {
  // The stream could not replay what was missed: every alert is read again.
  if (message.event === 'resync') {
    void queryClient.invalidateQueries({ queryKey: alertKeys.all(owner) });
    return null;
  }
  if (message.event !== 'alert') return null;
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return null;
  }
  if (!isAlertEvent(data)) return null;
  const alert: Alert = data.alert;
  queryClient.setQueryData(alertKeys.detail(owner, alert.id), alert);
  // Lists already loaded take the change at once; then they are read again, in their order.
  queryClient.setQueriesData<Alert[]>({ queryKey: alertKeys.lists(owner) }, (list) =>
    list?.some((item) => item.id === alert.id) ? list.map((item) => (item.id === alert.id ? alert : item)) : list,
  );
  void queryClient.invalidateQueries({ queryKey: alertKeys.lists(owner) });
  return data;
}
