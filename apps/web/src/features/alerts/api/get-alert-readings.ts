import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Alert, ReadingsResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

const HOUR_MS = 3600_000;

/** Intervals asked for the curve: a minute each on a four-hour window, well under the server's 2 000. */
export const CURVE_BUCKETS = 240;

/** The margin around an alert on its curve: a quarter of its duration, at least an hour, at most a day. */
export function curveMargin(durationMs: number): number {
  return Math.min(24 * HOUR_MS, Math.max(HOUR_MS, durationMs / 4));
}

/**
 * The period an alert's curve covers (epoch ms): from a margin before it opened to the same margin
 * after it was resolved; up to now while it runs (`live`). `shownTo` is where the curve stops
 * today: now, while the margin after a recent resolution is still to come.
 */
export function alertWindow(
  alert: Pick<Alert, 'openedAt' | 'resolvedAt'>,
  now: number,
): { from: number; to: number; shownTo: number; live: boolean } {
  const opened = Date.parse(alert.openedAt);
  const resolved = alert.resolvedAt ? Date.parse(alert.resolvedAt) : null;
  const margin = curveMargin((resolved ?? now) - opened);
  const from = opened - margin;
  if (resolved === null) return { from, to: now, shownTo: now, live: true };
  const to = resolved + margin;
  return { from, to, shownTo: Math.max(resolved, Math.min(now, to)), live: false };
}

/** endpoints.sensor.readings on the alert's measure over a period, in `buckets` intervals. */
export async function getAlertReadings({
  sensorId,
  key,
  from,
  to,
  buckets = CURVE_BUCKETS,
  signal,
}: {
  sensorId: string;
  key: string;
  from: number;
  to: number;
  buckets?: number;
  signal?: AbortSignal;
}): Promise<ReadingsResponse> {
  const query = { key, from: new Date(from).toISOString(), to: new Date(to).toISOString(), buckets };
  const data = await call(endpoints.sensor.readings, { params: { id: sensorId }, query, signal });
  if (!data || !Array.isArray(data.readings)) throw new Error(LOAD_ERROR);
  return data;
}

/**
 * The sensor's readings around an alert, on the alert's measure. A resolved alert's window is
 * fixed; while the alert runs, the window ends now and is read again every minute.
 */
export function useAlertReadings({ alert, now, enabled = true }: { alert: Alert; now: number; enabled?: boolean }) {
  const owner = useOwner();
  const window = alertWindow(alert, now);
  const key = alert.key ?? '';
  const from = new Date(window.from).toISOString();
  const to = window.live ? null : new Date(window.to).toISOString();
  const query = useQuery({
    queryKey: alertKeys.readings(owner, alert.id, { key, from, to, buckets: CURVE_BUCKETS }),
    // While the alert runs, the window ends when the readings are asked for.
    queryFn: ({ signal }) =>
      getAlertReadings({ sensorId: alert.sensorId ?? '', key, from: window.from, to: window.live ? Date.now() : window.to, signal }),
    enabled: enabled && Boolean(owner && alert.key && alert.sensorId),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    // Read again every minute while the curve still grows: the alert runs, or its margin after is still to come.
    refetchInterval: window.live || window.shownTo < window.to ? 60_000 : false,
  });
  return { query, window };
}
