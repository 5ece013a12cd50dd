import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Insights } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { INSIGHTS_REFRESH_MS, insightsKeys } from '../insights-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

// Light shape checks rather than the contract's zod schemas, as for the other screens' calls.
const isList = (value: unknown): value is unknown[] => Array.isArray(value);

/** endpoints.sensor.insights, for the measure `key`: the forecast, predicted breach, anomalies, defrosts, excursions and battery. */
export async function getInsights({ sensorId, key, signal }: { sensorId: string; key: string; signal?: AbortSignal }): Promise<Insights> {
  const data = await call(endpoints.sensor.insights, {
    params: { id: sensorId },
    query: { key },
    signal,
  });
  const insights = data?.insights;
  if (!insights || !isList(insights.forecast) || !isList(insights.anomalies)) throw new Error(LOAD_ERROR);
  // Lists the server adds over time may be missing from an older one: empty rather than broken.
  return {
    key: insights.key ?? key,
    computedAt: insights.computedAt ?? new Date().toISOString(),
    forecast: insights.forecast,
    forecastModel: insights.forecastModel ?? null,
    breach: insights.breach ?? null,
    anomalies: insights.anomalies,
    battery: insights.battery ?? null,
    defrosts: isList(insights.defrosts) ? insights.defrosts : [],
    excursions: isList(insights.excursions) ? insights.excursions : [],
  };
}

export function insightsQueryOptions({ sensorId, key, owner }: { sensorId: string; key: string; owner: string }) {
  return queryOptions({
    queryKey: insightsKeys.sensor(owner, sensorId, key),
    queryFn: ({ signal }) => getInsights({ sensorId, key, signal }),
    enabled: Boolean(owner && sensorId && key),
    staleTime: INSIGHTS_REFRESH_MS,
    // A forecast ages: refreshed every minute while the page is open, and when the tab comes back.
    refetchInterval: INSIGHTS_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
}

export function useInsights({ sensorId, key }: { sensorId: string; key: string | null }) {
  const owner = useOwner();
  return useQuery({ ...insightsQueryOptions({ sensorId, key: key ?? '', owner }), enabled: Boolean(owner && sensorId && key) });
}
