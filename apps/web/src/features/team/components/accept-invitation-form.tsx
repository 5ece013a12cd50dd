import { characterCount } from '@vigie/contract/text';
import { Eye, EyeOff, UserPlus } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { acceptInvitation } from '../api/accept-invitation';
import { NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../team-format';
import { FieldLabel } from '@/components/ui/field-label';

const inputClass =
  'block w-full rounded-xl border border-white/10 bg-slate-900/70 px-4 py-3 text-base text-white placeholder:text-slate-400 shadow-inner shadow-black/20 transition-colors focus:border-cyan-300/70 focus:outline-none focus-visible:ring-2 focus-visible:ring-cyan-300/40 aria-[invalid=true]:border-red-400/70';

type FieldErrors = { name?: string; password?: string };

function validate(name: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!name.trim()) errors.name = 'Indiquez votre nom.';
  else if (characterCount(name.trim()) > NAME_MAX_LENGTH) errors.name = `Le nom ne doit pas dépasser ${NAME_MAX_LENGTH} caractères.`;
  if (Array.from(password).length < PASSWORD_MIN_LENGTH)
    errors.password = `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`;
  return errors;
}

/** The invited person chooses a name and a password; the account is made and signed in. */
export function AcceptInvitationForm({ token, onAccepted }: { token: string; onAccepted: () => void }) {
  const { startSession } = useAuth();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const ids = {
    name: `${id}-name`,
    nameError: `${id}-name-error`,
    password: `${id}-password`,
    passwordHint: `${id}-password-hint`,
    passwordError: `${id}-password-error`,
    failure: `${id}-failure`,
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setFailure(null);
    const found = validate(name, password);
    setErrors(found);
    if (found.name) return nameRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();

    setSubmitting(true);
    try {
      const accessToken = await acceptInvitation({ token, name: name.trim(), password });
      const session = await startSession(accessToken);
      if (session.success) {
        onAccepted();
        return;
      }
      setFailure(session.error ?? 'Votre compte est créé, mais la connexion a échoué\u202F: connectez-vous.');
    } catch (error) {
      setFailure(errorMessage(error, 'Une erreur inattendue s’est produite.'));
    } finally {
      setSubmitting(false);
    }
  };

  // A refusal is read at once, and the keyboard starts from it.
  useEffect(() => {
    if (failure) failureRef.current?.focus();
  }, [failure]);

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-describedby={failure ? ids.failure : undefined}>
      {failure && (
        <div ref={failureRef} tabIndex={-1} className="rounded-xl focus:outline-none">
          <Alert id={ids.failure} size="compact">
            {failure}
          </Alert>
        </div>
      )}

      <div className="space-y-2">
        <FieldLabel htmlFor={ids.name}>Nom</FieldLabel>
        <input
          ref={nameRef}
          id={ids.name}
          name="name"
          autoComplete="name"
          required
          autoFocus
          value={name}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? ids.nameError : undefined}
          className={inputClass}
        />
        {errors.name && (
          <p id={ids.nameError} role="alert" className="text-sm text-red-200">
            {errors.name}
          </p>
        )}
      </div>

      <div className="space-y-2">
        <FieldLabel htmlFor={ids.password}>Mot de passe</FieldLabel>
        <div className="relative">
          <input
            ref={passwordRef}
            id={ids.password}
            name="password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={errors.password ? `${ids.passwordError} ${ids.passwordHint}` : ids.passwordHint}
            className={`${inputClass} pr-12`}
          />
          <button
            type="button"
            onClick={() => setShowPassword((shown) => !shown)}
            aria-label={showPassword ? 'Masquer le mot de passe' : 'Afficher le mot de passe'}
            aria-controls={ids.password}
            className="absolute inset-y-1.5 right-1.5 grid w-10 place-items-center rounded-lg text-slate-300 transition-colors hover:bg-white/5 hover:text-white"
          >
            {showPassword ? <EyeOff className="size-5" aria-hidden="true" /> : <Eye className="size-5" aria-hidden="true" />}
          </button>
        </div>
        <p id={ids.passwordHint} className="text-sm text-slate-400">
          {`Au moins ${PASSWORD_MIN_LENGTH}\u00A0caractères. Une phrase facile à retenir convient très bien.`}
        </p>
        {errors.password && (
          <p id={ids.passwordError} role="alert" className="text-sm text-red-200">
            {errors.password}
          </p>
        )}
      </div>

      <Button
        type="submit"
        variant="primary"
        busy={submitting}
        icon={<UserPlus className="size-5" aria-hidden="true" />}
        className="w-full py-3 text-base"
      >
        {submitting ? 'Création du compte…' : 'Rejoindre l’équipe'}
      </Button>
    </form>
  );
}
