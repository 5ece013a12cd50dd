import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Alert } from '@vigie/contract';
import { api } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';

type Step = { kind: 'acknowledge'; comment?: string } | { kind: 'action'; text: string } | { kind: 'resolve'; text?: string };

/** POST /api/alerts/:id/acknowledge, /actions or /resolve. */
export async function actOnAlert({ id, step }: { id: string; step: Step }): Promise<Alert> {
  const path = `/alerts/${encodeURIComponent(id)}`;
  const data =
    step.kind === 'acknowledge'
      ? await api.post<{ alert?: Alert }>(`${path}/acknowledge`, step.comment ? { comment: step.comment } : {})
      : step.kind === 'action'
        ? await api.post<{ alert?: Alert }>(`${path}/actions`, { text: step.text })
        : await api.post<{ alert?: Alert }>(`${path}/resolve`, step.text ? { text: step.text } : {});
  if (!data?.alert) throw new Error('Réponse du serveur illisible.');
  return data.alert;
}

/** Acknowledges, records a corrective action or resolves an alert; the lists follow. */
export function useAlertStep({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (step: Step) => actOnAlert({ id, step }),
    onSuccess: (alert) => {
      queryClient.setQueryData(alertKeys.detail(owner, alert.id), alert);
      void queryClient.invalidateQueries({ queryKey: alertKeys.lists(owner) });
    },
  });
}
