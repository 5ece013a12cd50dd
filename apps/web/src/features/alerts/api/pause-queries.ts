import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatePauseRequest, Pause } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';

/** Query keys of the pauses, per signed-in user; a sensor's history is under its list, renewed with it. */
export const pauseKeys = {
  list: (owner: string) => ['pauses', owner] as const,
  history: (owner: string, sensorId: string, periodMs: number) => ['pauses', owner, 'history', sensorId, periodMs] as const,
};

type PauseHistoryQuery = { sensorId: string; from: string };

/**
 * endpoints.pauses.list: the pauses going on, of the sensors and sites the person sees; with
 * `sensorId` and `from`, those that held that sensor (its own and its shop's) since then, ended ones included.
 */
export async function getPauses({ signal, query }: { signal?: AbortSignal; query?: PauseHistoryQuery } = {}): Promise<Pause[]> {
  const data = await call(endpoints.pauses.list, { signal, ...(query ? { query } : {}) });
  return data?.pauses ?? [];
}

/** The pauses going on, read again each minute (one may end by itself). */
export function usePauses() {
  const owner = useOwner();
  return useQuery({
    queryKey: pauseKeys.list(owner),
    queryFn: ({ signal }) => getPauses({ signal }),
    enabled: Boolean(owner),
    refetchInterval: 60_000,
  });
}

/** The pauses that held a sensor over the last `periodMs` (its history chart shades them), oldest first. */
export function usePauseHistory({ sensorId, periodMs }: { sensorId: string; periodMs: number }) {
  const owner = useOwner();
  return useQuery({
    queryKey: pauseKeys.history(owner, sensorId, periodMs),
    queryFn: ({ signal }) => getPauses({ signal, query: { sensorId, from: new Date(Date.now() - periodMs).toISOString() } }),
    enabled: Boolean(owner && sensorId),
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}

/** endpoints.pauses.create: pausing again what is paused replaces its pause. */
export function useStartPause() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async (body: CreatePauseRequest) => (await call(endpoints.pauses.create, { body })).pause,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pauseKeys.list(owner) }),
  });
}

/** endpoints.pauses.end: the notifications that waited leave at once. */
export function useEndPause() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (id: string) => call(endpoints.pauses.end, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pauseKeys.list(owner) }),
  });
}

/** The pause that holds this sensor now: its own, or its site's. */
export function pauseOf(pauses: readonly Pause[] | undefined, sensor: { id: string; siteId: string | null }): Pause | null {
  return (
    pauses?.find((pause) => pause.sensorId === sensor.id) ??
    pauses?.find((pause) => !pause.sensorId && pause.siteId === sensor.siteId) ??
    null
  );
}
