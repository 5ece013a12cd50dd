import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateRuleRequest, Rule } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys, type RuleTarget } from '../alert-keys';

const targetId = (target: RuleTarget) => ('sensorId' in target ? target.sensorId : target.siteId);

/** GET /api/alert-rules?sensorId= or ?siteId=: the rules aimed at one sensor, or at a site. */
export async function getRules({ target, signal }: { target: RuleTarget; signal?: AbortSignal }): Promise<Rule[]> {
  const query = 'sensorId' in target ? `sensorId=${encodeURIComponent(target.sensorId)}` : `siteId=${encodeURIComponent(target.siteId)}`;
  const data = await api.get<{ rules?: Rule[] }>(`/alert-rules?${query}`, { signal });
  return data?.rules ?? [];
}

export function useRules({ target }: { target: RuleTarget }) {
  const owner = useOwner();
  return useQuery({
    queryKey: alertKeys.rules(owner, target),
    queryFn: ({ signal }) => getRules({ target, signal }),
    enabled: Boolean(owner && targetId(target)),
  });
}

/** POST /api/alert-rules. */
export function useCreateRule({ target }: { target: RuleTarget }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async (rule: CreateRuleRequest) => (await api.post<{ rule: Rule }>('/alert-rules', rule)).rule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.rules(owner, target) }),
  });
}

/** DELETE /api/alert-rules/:id: its active alerts are closed, their history kept. */
export function useDeleteRule({ target }: { target: RuleTarget }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/alert-rules/${encodeURIComponent(id)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: alertKeys.rules(owner, target) });
      void queryClient.invalidateQueries({ queryKey: alertKeys.lists(owner) });
    },
  });
}

/** GET /api/alert-rules/:id; a deleted rule answers 404 and its alerts keep their history. */
export function useRule({ id }: { id: string | undefined }) {
  const owner = useOwner();
  return useQuery({
    queryKey: alertKeys.rule(owner, id ?? ''),
    queryFn: async ({ signal }) => (await api.get<{ rule: Rule }>(`/alert-rules/${encodeURIComponent(id ?? '')}`, { signal })).rule,
    enabled: Boolean(owner && id),
    retry: false,
  });
}
