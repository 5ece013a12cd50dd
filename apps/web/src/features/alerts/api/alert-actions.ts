import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActionKind, Alert, ProductFate } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { alertKeys } from '../alert-keys';

/** A corrective action as sent: a kind from the list, a text, or both, and the products' fate. */
export type ActionBody = { kind?: ActionKind; text?: string; fate?: ProductFate };

type Step = { kind: 'acknowledge'; comment?: string } | { kind: 'action'; action: ActionBody } | { kind: 'resolve'; text?: string };

/** endpoints.alerts.acknowledge, recordAction or resolve. */
export async function actOnAlert({ id, step }: { id: string; step: Step }): Promise<Alert> {
  const params = { id };
  const data =
    step.kind === 'acknowledge'
      ? await call(endpoints.alerts.acknowledge, { params, body: step.comment ? { comment: step.comment } : {} })
      : step.kind === 'action'
        ? await call(endpoints.alerts.recordAction, { params, body: step.action })
        : await call(endpoints.alerts.resolve, { params, body: step.text ? { text: step.text } : {} });
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
