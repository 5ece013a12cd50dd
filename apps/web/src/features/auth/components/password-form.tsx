import { KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH } from '@vigie/contract/values';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useChangePassword } from '../api/account-mutations';
import { FieldLabel } from '@/components/ui/field-label';

/** « Mon compte »: a new password, given the current one; the other sessions end at once. */
export function PasswordForm() {
  const id = useId();
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(false);
    if (!current) return setProblem('Saisissez votre mot de passe actuel.');
    if (Array.from(next).length < PASSWORD_MIN_LENGTH) {
      return setProblem(`Le nouveau mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`);
    }
    if (next !== confirmation) return setProblem('Les deux saisies du nouveau mot de passe sont différentes.');
    setProblem(null);
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setConfirmation('');
          setDone(true);
        },
        onError: (error) => setProblem(errorMessage(error, 'Le mot de passe n’a pas pu être changé.')),
      },
    );
  };

  const statusId = `${id}-status`;
  const hintId = `${id}-hint`;
  const field = (label: string, value: string, onChange: (value: string) => void, autoComplete: string, hint?: boolean) => (
    <div>
      <FieldLabel htmlFor={`${id}-${autoComplete}-${label}`} className="mb-1.5">
        {label}
      </FieldLabel>
      <input
        id={`${id}-${autoComplete}-${label}`}
        type="password"
        autoComplete={autoComplete}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={[hint ? hintId : null, statusId].filter(Boolean).join(' ')}
        className={inputClass}
      />
    </div>
  );

  return (
    <form noValidate onSubmit={onSubmit} className="grid max-w-md gap-4">
      {field('Mot de passe actuel', current, setCurrent, 'current-password')}
      {field('Nouveau mot de passe', next, setNext, 'new-password', true)}
      <p id={hintId} className="-mt-2 text-xs text-slate-400">
        {PASSWORD_MIN_LENGTH} caractères au moins{'\u202F'}; une phrase de passe est la bienvenue.
      </p>
      {field('Confirmer le nouveau mot de passe', confirmation, setConfirmation, 'new-password')}
      <FormStatus id={statusId} error={problem} success={done ? 'Mot de passe changé. Vos autres sessions ont été fermées.' : undefined} />
      <div>
        <Button type="submit" variant="primary" busy={change.isPending} icon={<KeyRound className="size-4" aria-hidden="true" />}>
          Changer le mot de passe
        </Button>
      </div>
    </form>
  );
}
