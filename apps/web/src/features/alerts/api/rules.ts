import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateRuleRequest, Rule, UpdateRuleRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys, type RuleTarget } from '../alert-keys';

const targetId = (target: RuleTarget) => ('sensorId' in target ? target.sensorId : target.siteId);

/** endpoints.alertRules.list with `sensorId` or `siteId`: the rules aimed at one sensor, or at a site. */
export async function getRules({ target, signal }: { target: RuleTarget; signal?: AbortSignal }): Promise<Rule[]> {
  const query = 'sensorId' in target ? { sensorId: target.sensorId } : { siteId: target.siteId };
  const data = await call(endpoints.alertRules.list, { query, signal });
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

/** endpoints.alertRules.create. */
export function useCreateRule({ target }: { target: RuleTarget }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async (rule: CreateRuleRequest) => (await call(endpoints.alertRules.create, { body: rule })).rule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.rules(owner, target) }),
  });
}

/**
 * endpoints.alertRules.update. A locked template's rule may be tightened, never loosened: the
 * server answers 403 with the reason, in French.
 */
export function useUpdateRule({ target }: { target: RuleTarget }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: UpdateRuleRequest }) =>
      (await call(endpoints.alertRules.update, { params: { id }, body: changes })).rule,
    onSuccess: (rule) => {
      void queryClient.invalidateQueries({ queryKey: alertKeys.rule(owner, rule.id) });
      return queryClient.invalidateQueries({ queryKey: alertKeys.rules(owner, target) });
    },
  });
}

/** endpoints.alertRules.remove: its active alerts are closed, their history kept. */
export function useDeleteRule({ target }: { target: RuleTarget }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (id: string) => call(endpoints.alertRules.remove, { params: { id } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: alertKeys.rules(owner, target) });
      void queryClient.invalidateQueries({ queryKey: alertKeys.lists(owner) });
    },
  });
}

/** endpoints.alertRules.get; a deleted rule answers 404 and its alerts keep their history. */
export function useRule({ id }: { id: string | undefined }) {
  const owner = useOwner();
  return useQuery({
    queryKey: alertKeys.rule(owner, id ?? ''),
    queryFn: async ({ signal }) => (await call(endpoints.alertRules.get, { params: { id: id ?? '' }, signal })).rule,
    enabled: Boolean(owner && id),
    retry: false,
  });
}

/** endpoints.alertRules.list without a filter: every rule of the sensors and sites the person sees (the cards' limits). */
export function useAllRules() {
  const owner = useOwner();
  return useQuery({
    queryKey: [...alertKeys.allRules(owner), 'all'] as const,
    queryFn: async ({ signal }) => (await call(endpoints.alertRules.list, { signal }))?.rules ?? [],
    enabled: Boolean(owner),
    staleTime: 60_000,
  });
}
