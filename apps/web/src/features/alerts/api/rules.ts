import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateRuleRequest, Rule } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';

/** GET /api/alert-rules?sensorId=: the rules aimed at one sensor. */
export async function getSensorRules({ sensorId, signal }: { sensorId: string; signal?: AbortSignal }): Promise<Rule[]> {
  const data = await api.get<{ rules?: Rule[] }>(`/alert-rules?sensorId=${encodeURIComponent(sensorId)}`, { signal });
  return data?.rules ?? [];
}

export function useSensorRules({ sensorId }: { sensorId: string }) {
  const owner = useOwner();
  return useQuery({
    queryKey: alertKeys.rules(owner, sensorId),
    queryFn: ({ signal }) => getSensorRules({ sensorId, signal }),
    enabled: Boolean(owner && sensorId),
  });
}

/** POST /api/alert-rules. */
export function useCreateRule({ sensorId }: { sensorId: string }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async (rule: CreateRuleRequest) => (await api.post<{ rule: Rule }>('/alert-rules', rule)).rule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.rules(owner, sensorId) }),
  });
}

/** DELETE /api/alert-rules/:id: its active alerts are closed, their history kept. */
export function useDeleteRule({ sensorId }: { sensorId: string }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/alert-rules/${encodeURIComponent(id)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: alertKeys.rules(owner, sensorId) });
      void queryClient.invalidateQueries({ queryKey: [...alertKeys.all(owner), 'list'] });
    },
  });
}

/** GET /api/alert-rules/:id; a deleted rule answers 404 and its alerts keep their history. */
export function useRule({ id }: { id: string | undefined }) {
  const owner = useOwner();
  return useQuery({
    queryKey: [...alertKeys.all(owner), 'rule', id ?? ''],
    queryFn: async ({ signal }) => (await api.get<{ rule: Rule }>(`/alert-rules/${encodeURIComponent(id ?? '')}`, { signal })).rule,
    enabled: Boolean(owner && id),
    retry: false,
  });
}
