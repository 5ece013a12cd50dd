import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateRuleTemplateRequest, RuleTemplate, UpdateRuleTemplateRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.ruleTemplates.list: the organization's rule templates, read by every member. */
export function useRuleTemplates() {
  const owner = useOwner();
  return useQuery({
    queryKey: alertKeys.templates(owner),
    queryFn: async ({ signal }): Promise<RuleTemplate[]> => {
      const data = await call(endpoints.ruleTemplates.list, { signal });
      if (!Array.isArray(data?.templates)) throw new Error(LOAD_ERROR);
      return data.templates;
    },
    enabled: Boolean(owner),
  });
}

/**
 * A template lays, rewrites or removes one rule in each site it aims at: after any change, the
 * templates and every list of rules are read again, and the alerts (a rule removed closes its own).
 */
function useTemplateWrite<T, R>(run: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: alertKeys.allRules(owner) });
      void queryClient.invalidateQueries({ queryKey: alertKeys.lists(owner) });
      return queryClient.invalidateQueries({ queryKey: alertKeys.templates(owner) });
    },
  });
}

/** endpoints.ruleTemplates.create (an admin who sees the whole organization). */
export const useCreateRuleTemplate = () =>
  useTemplateWrite(
    async (template: CreateRuleTemplateRequest) => (await call(endpoints.ruleTemplates.create, { body: template })).template,
  );

/** endpoints.ruleTemplates.update: every rule it laid changes with it, the shops' tightenings included. */
export const useUpdateRuleTemplate = () =>
  useTemplateWrite(
    async ({ id, changes }: { id: string; changes: UpdateRuleTemplateRequest }) =>
      (await call(endpoints.ruleTemplates.update, { params: { id }, body: changes })).template,
  );

/** endpoints.ruleTemplates.remove: its rules go too; their active alerts are closed, their history kept. */
export const useDeleteRuleTemplate = () => useTemplateWrite((id: string) => call(endpoints.ruleTemplates.remove, { params: { id } }));
