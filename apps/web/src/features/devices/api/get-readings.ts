import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReadingsResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import type { DeviceKind } from '../device-kinds';
import { LOAD_ERROR } from '@/lib/fallback-text';

export type ReadingsParams = { key: string | null; from: string; to: string; buckets: number };

/** endpoints.sensor.readings (or the emitter's): the period in at most 2 000 server-side buckets (min, avg, max). */
export async function getReadings({
  kind,
  id,
  params,
  signal,
}: {
  kind: DeviceKind;
  id: string;
  params: ReadingsParams;
  signal?: AbortSignal;
}): Promise<ReadingsResponse> {
  const query = { from: params.from, to: params.to, buckets: params.buckets, key: params.key || undefined };
  const data = await call(endpoints[kind].readings, { params: { id }, query, signal });
  if (!data || !Array.isArray(data.readings)) throw new Error(LOAD_ERROR);
  return data;
}

export const readingsKeys = {
  all: (kind: DeviceKind, owner: string, id: string) => ['readings', kind, owner, id] as const,
  range: (kind: DeviceKind, owner: string, id: string, key: string | null, range: string, buckets: number) =>
    ['readings', kind, owner, id, key, range, buckets] as const,
};

export type ReadingsQuery = {
  kind: DeviceKind;
  id: string;
  owner: string;
  range: { name: string; ms: number };
  key: string | null;
  buckets: number;
};

export function readingsQueryOptions({ kind, id, owner, range, key, buckets }: ReadingsQuery) {
  return queryOptions({
    queryKey: readingsKeys.range(kind, owner, id, key, range.name, buckets),
    queryFn: ({ signal }) => {
      const to = new Date();
      const from = new Date(to.getTime() - range.ms);
      return getReadings({ kind, id, params: { key, from: from.toISOString(), to: to.toISOString(), buckets }, signal });
    },
    enabled: Boolean(owner),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useReadings(query: ReadingsQuery) {
  return useQuery(readingsQueryOptions(query));
}
