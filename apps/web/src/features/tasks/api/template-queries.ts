import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateTaskTemplateRequest, TaskTemplate } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { taskKeys } from '../task-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** The templates of the plan, under the tasks' keys: a change to a template reads both again. */
export const templateKeys = {
  list: (owner: string) => [...taskKeys.all(owner), 'templates'] as const,
};

/** endpoints.taskTemplates.list: the templates that cover the sites one sees (admins and managers). */
export function useTaskTemplates({ enabled = true }: { enabled?: boolean } = {}) {
  const owner = useOwner();
  return useQuery({
    queryKey: templateKeys.list(owner),
    queryFn: async ({ signal }): Promise<TaskTemplate[]> => {
      const data = await call(endpoints.taskTemplates.list, { signal });
      if (!Array.isArray(data?.templates)) throw new Error(LOAD_ERROR);
      return data.templates;
    },
    enabled: Boolean(owner) && enabled,
  });
}

/**
 * A template makes the tasks of the sites it covers: after any change, the templates and the tasks
 * (« Tâches du jour ») are read again. Awaited, so that the editor closes on the new list.
 */
function useTemplateWrite<T, R>(run: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all(owner) }),
  });
}

/** endpoints.taskTemplates.create: its tasks of the next 24 h are made at once. */
export const useCreateTaskTemplate = () =>
  useTemplateWrite(
    async (request: CreateTaskTemplateRequest): Promise<TaskTemplate> =>
      (await call(endpoints.taskTemplates.create, { body: request })).template,
  );

/** endpoints.taskTemplates.update: the whole template again; its tasks to come follow, those already due keep what they were. */
export const useUpdateTaskTemplate = () =>
  useTemplateWrite(
    async ({ id, request }: { id: string; request: CreateTaskTemplateRequest }): Promise<TaskTemplate> =>
      (await call(endpoints.taskTemplates.update, { params: { id }, body: request })).template,
  );

/** endpoints.taskTemplates.remove: its tasks to come go; those already due stay in the record. */
export const useDeleteTaskTemplate = () => useTemplateWrite((id: string) => call(endpoints.taskTemplates.remove, { params: { id } }));
