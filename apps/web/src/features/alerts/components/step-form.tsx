import type { Alert } from '@vigie/contract';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { FieldLabel } from '@/components/ui/field-label';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useAlertStep } from '../api/alert-actions';

type Step = Parameters<ReturnType<typeof useAlertStep>['mutate']>[0];

/** One of the three forms of an alert: a text (optional or not) and a button. */
export function StepForm({
  alert,
  label,
  placeholder,
  button,
  icon,
  required,
  disabledReason,
  toStep,
  done,
}: {
  alert: Alert;
  label: string;
  placeholder: string;
  button: string;
  icon: ReactNode;
  required: boolean;
  disabledReason?: string | undefined;
  toStep: (text: string) => Step;
  done: string;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const step = useAlertStep({ id: alert.id });
  const fieldId = useId();
  const statusId = useId();
  const hintId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSuccess(null);
    if (required && !text.trim()) {
      setError('Décrivez ce qui a été fait.');
      return;
    }
    setError(null);
    step.mutate(toStep(text.trim()), {
      onSuccess: () => {
        setText('');
        setSuccess(done);
      },
      onError: (failure) => setError(errorMessage(failure, 'L’opération a échoué.')),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <FieldLabel htmlFor={fieldId}>{label}</FieldLabel>
      <textarea
        id={fieldId}
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={2}
        maxLength={2000}
        placeholder={placeholder}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={`${statusId}${disabledReason ? ` ${hintId}` : ''}`}
        className={inputClass}
      />
      {disabledReason && (
        <p id={hintId} className="text-sm text-amber-200">
          {disabledReason}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary" busy={step.isPending} disabled={Boolean(disabledReason)} icon={icon}>
          {button}
        </Button>
        <FormStatus id={statusId} error={error} success={success} />
      </div>
    </form>
  );
}
