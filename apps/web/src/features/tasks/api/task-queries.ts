import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateProcessRequest, Process, Task } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { apiFetch, ApiError, call, endpointPath, readErrorText } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { earlyOr } from '@/lib/early-fetch';
import { taskKeys } from '../task-keys';
import { PROCESSES_PATH, tasksListPath } from './task-reads';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.tasks.list: the tasks of the sites one sees due in [from, to), by due time. */
export function useTasks({ from, to }: { from: string; to: string }) {
  const owner = useOwner();
  return useQuery({
    queryKey: taskKeys.list(owner, from, to),
    queryFn: async ({ signal }): Promise<Task[]> => {
      // The read started at page load (task-reads.ts) when the screen was opened afresh.
      const data = await earlyOr(tasksListPath({ from, to }), () => call(endpoints.tasks.list, { query: { from, to }, signal }));
      if (!Array.isArray(data?.tasks)) throw new Error(LOAD_ERROR);
      return data.tasks;
    },
    enabled: Boolean(owner),
    // A task turns late or missed by the clock: the list is read again every minute.
    refetchInterval: 60_000,
  });
}

/** endpoints.tasks.uploadPhoto: the photo's id, to name as a photo item's answer. */
export async function uploadTaskPhoto(taskId: string, file: Blob): Promise<{ id: string; sha256: string }> {
  const form = new FormData();
  form.set('file', file);
  const path = endpointPath(endpoints.tasks.uploadPhoto, { id: taskId });
  // Multipart rather than JSON: the browser writes the boundary of its content type itself.
  const response = await apiFetch(path, { method: 'POST', multipart: form, headers: { Accept: 'application/json' } });
  if (!response.ok) throw new ApiError(await readErrorText(response), response.status);
  const data = (await response.json()) as { photo?: { id: string; sha256: string } };
  if (!data.photo) throw new Error('Réponse du serveur illisible.');
  return data.photo;
}

/** endpoints.processes.list: the coolings and hot holdings of the sites one sees, newest first. */
export function useProcesses() {
  const owner = useOwner();
  return useQuery({
    queryKey: taskKeys.processes(owner),
    queryFn: async ({ signal }): Promise<Process[]> => {
      const data = await earlyOr(PROCESSES_PATH, () => call(endpoints.processes.list, { query: {}, signal }));
      if (!Array.isArray(data?.processes)) throw new Error(LOAD_ERROR);
      return data.processes;
    },
    enabled: Boolean(owner),
    refetchInterval: 60_000,
  });
}

function useProcessMutation<V>(run: (variables: V) => Promise<{ process?: Process } | undefined>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async (variables: V): Promise<Process> => {
      const data = await run(variables);
      if (!data?.process) throw new Error('Réponse du serveur illisible.');
      return data.process;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.processes(owner) }),
  });
}

/** endpoints.processes.create: a cooling or a hot holding started now with its first temperature. */
export const useStartProcess = () =>
  useProcessMutation((request: CreateProcessRequest) => call(endpoints.processes.create, { body: request }));

/** endpoints.processes.addReading: a temperature of the product, now. */
export const useAddProcessReading = () =>
  useProcessMutation(({ id, temperature }: { id: string; temperature: number }) =>
    call(endpoints.processes.addReading, { params: { id }, body: { temperature } }),
  );

/** endpoints.processes.end: a hot holding ended. */
export const useEndProcess = () => useProcessMutation((id: string) => call(endpoints.processes.end, { params: { id } }));
