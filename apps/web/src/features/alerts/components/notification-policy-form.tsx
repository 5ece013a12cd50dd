import type { EscalationStep, NotificationPolicy } from '@vigie/contract';
import { Plus, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/copy-button';
import { FormStatus } from '@/components/ui/form-status';
import { DetailSection, inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useNotificationPolicy, useUpdateNotificationPolicy } from '../api/get-notification-policy';
import { FieldLabel } from '@/components/ui/field-label';

type StepDraft = { afterMinutes: string; emails: string };

const toDraft = (step: EscalationStep): StepDraft => ({ afterMinutes: String(step.afterMinutes), emails: step.emails?.join(', ') ?? '' });

function Form({ policy }: { policy: NotificationPolicy }) {
  const update = useUpdateNotificationPolicy();
  const [steps, setSteps] = useState<StepDraft[]>(policy.steps.map(toDraft));
  const [repeat, setRepeat] = useState(policy.repeatMinutes === null ? '' : String(policy.repeatMinutes));
  const [reack, setReack] = useState(String(policy.reacknowledgeMinutes));
  const [webhook, setWebhook] = useState(policy.webhookUrl ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const ids = { repeat: useId(), reack: useId(), webhook: useId(), status: useId(), step: useId() };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    const parsed: EscalationStep[] = [];
    for (const [index, step] of steps.entries()) {
      const minutes = Number(step.afterMinutes);
      if (!Number.isInteger(minutes) || minutes < 0) return setError(`Étape ${index + 1} : un nombre entier de minutes est attendu.`);
      const emails = step.emails
        .split(/[,;\s]+/)
        .map((email) => email.trim())
        .filter(Boolean);
      parsed.push({ afterMinutes: minutes, emails: emails.length > 0 ? emails : null });
    }
    const repeatMinutes = repeat.trim() === '' ? null : Number(repeat);
    setError(null);
    update.mutate(
      { steps: parsed, repeatMinutes, reacknowledgeMinutes: Number(reack), webhookUrl: webhook.trim() === '' ? null : webhook.trim() },
      {
        onSuccess: () => setSaved('Politique enregistrée.'),
        onError: (failure) => setError(errorMessage(failure, 'La politique n’a pas été enregistrée.')),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-200">Qui prévenir, et après combien de minutes sans acquittement</legend>
        {steps.map((step, index) => (
          <div key={index} className="flex flex-wrap items-end gap-2">
            <div className="w-28 space-y-1">
              <label htmlFor={`${ids.step}-m-${index}`} className="block text-xs text-slate-400">
                Après (min)
              </label>
              <input
                id={`${ids.step}-m-${index}`}
                inputMode="numeric"
                value={step.afterMinutes}
                onChange={(e) => setSteps(steps.map((s, i) => (i === index ? { ...s, afterMinutes: e.target.value } : s)))}
                className={inputClass}
              />
            </div>
            <div className="min-w-48 flex-1 space-y-1">
              <label htmlFor={`${ids.step}-e-${index}`} className="block text-xs text-slate-400">
                Adresses (vide : l’équipe)
              </label>
              <input
                id={`${ids.step}-e-${index}`}
                value={step.emails}
                placeholder="l’équipe"
                onChange={(e) => setSteps(steps.map((s, i) => (i === index ? { ...s, emails: e.target.value } : s)))}
                className={inputClass}
              />
            </div>
            {steps.length > 1 && (
              <Button
                size="sm"
                aria-label={`Retirer l’étape ${index + 1}`}
                onClick={() => setSteps(steps.filter((_, i) => i !== index))}
                icon={<X className="size-4" aria-hidden="true" />}
              />
            )}
          </div>
        ))}
        {steps.length < 5 && (
          <Button
            size="sm"
            onClick={() => setSteps([...steps, { afterMinutes: '120', emails: '' }])}
            icon={<Plus className="size-4" aria-hidden="true" />}
          >
            Ajouter une étape d’escalade
          </Button>
        )}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <FieldLabel htmlFor={ids.repeat}>Rappel sans acquittement, toutes les (min ; vide : jamais)</FieldLabel>
          <input id={ids.repeat} inputMode="numeric" value={repeat} onChange={(e) => setRepeat(e.target.value)} className={inputClass} />
        </div>
        <div className="space-y-1.5">
          <FieldLabel htmlFor={ids.reack}>Relance d’une alerte acquittée toujours active après (min)</FieldLabel>
          <input id={ids.reack} inputMode="numeric" value={reack} onChange={(e) => setReack(e.target.value)} className={inputClass} />
        </div>
      </div>
      <div className="space-y-1.5">
        <FieldLabel htmlFor={ids.webhook}>Webhook (https://…, facultatif)</FieldLabel>
        <input id={ids.webhook} type="url" value={webhook} onChange={(e) => setWebhook(e.target.value)} className={inputClass} />
        {policy.webhookSecret && (
          <p className="flex flex-wrap items-center gap-2 text-xs text-slate-400">
            Secret de signature (HMAC-SHA256 de « horodatage.corps », en-tête X-Vigie-Signature) :
            <code className="break-all text-slate-200">{policy.webhookSecret}</code>
            <CopyButton text={policy.webhookSecret} label="Copier le secret" />
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" busy={update.isPending}>
          Enregistrer
        </Button>
        <FormStatus id={ids.status} error={error} success={saved} />
      </div>
    </form>
  );
}

/** The organization's notification policy: escalation steps, reminders, webhook. */
export function NotificationPolicyForm() {
  const { data } = useNotificationPolicy();
  return (
    <DetailSection
      id="notification-policy"
      title="Notifications"
      description="Vigie prévient la première étape dès qu’une alerte s’ouvre, puis insiste tant que personne ne l’acquitte."
    >
      {data ? <Form policy={data} /> : <p className="text-sm text-slate-300">Chargement…</p>}
    </DetailSection>
  );
}
