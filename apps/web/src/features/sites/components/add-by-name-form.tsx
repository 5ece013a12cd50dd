import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { FieldLabel } from '@/components/ui/field-label';

type AddByNameFormProps = {
  label: string;
  placeholder: string;
  submitLabel: string;
  /** Said when the name is left empty. */
  requiredMessage: string;
  /** Said when the server refuses without a message of its own. */
  failureMessage: string;
  busy: boolean;
  /** Creates it; resolves with what to say once done. */
  create: (name: string) => Promise<string>;
  className?: string;
  /** Extra classes of the field and the button (a taller touch target). */
  controlClassName?: string;
};

/** Adds something known by its name (a shop, a region): one field, one button, what happened said beside. */
export function AddByNameForm({
  label,
  placeholder,
  submitLabel,
  requiredMessage,
  failureMessage,
  busy,
  create,
  className = '',
  controlClassName = '',
}: AddByNameFormProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const fieldId = useId();
  const statusId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (!name.trim()) return setError(requiredMessage);
    setError(null);
    create(name.trim()).then(
      (message) => {
        setName('');
        setDone(message);
      },
      (failure: unknown) => setError(errorMessage(failure, failureMessage)),
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className={`flex flex-col gap-2 sm:flex-row sm:items-end ${className}`}>
      <div className="flex-1 space-y-1.5">
        <FieldLabel htmlFor={fieldId}>{label}</FieldLabel>
        <input
          id={fieldId}
          value={name}
          placeholder={placeholder}
          aria-describedby={statusId}
          onChange={(event) => setName(event.target.value)}
          className={`${inputClass} ${controlClassName}`}
        />
      </div>
      <Button
        type="submit"
        variant="secondary"
        busy={busy}
        className={controlClassName}
        icon={<Plus className="size-4" aria-hidden="true" />}
      >
        {submitLabel}
      </Button>
      <FormStatus id={statusId} error={error} success={done} className="sm:self-center" />
    </form>
  );
}
