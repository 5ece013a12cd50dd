import { Mail } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { ApiError } from '@/lib/api-client';
import { useRequestPasswordReset } from '../api/password-reset';
import { isValidEmail } from '../email';
import { authInputClass } from './auth-styles';
import { AuthSubmitButton } from './auth-submit-button';
import { FieldLabel } from '@/components/ui/field-label';

const NETWORK_ERROR = 'Le serveur ne répond pas. Vérifiez votre connexion internet, puis réessayez.';

/** « Mot de passe oublié ? »: the address, then the server's answer, the same for any address. */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const request = useRequestPasswordReset();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (done) statusRef.current?.focus();
  }, [done]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (request.isPending) return;
    if (!isValidEmail(email.trim())) {
      setError('Saisissez une adresse e-mail valide, par exemple vous@entreprise.fr.');
      inputRef.current?.focus();
      return;
    }
    setError(null);
    try {
      const answer = await request.mutateAsync(email.trim());
      setDone(answer.message);
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status !== 0 ? failure.message : NETWORK_ERROR);
      inputRef.current?.focus();
    }
  };

  const emailId = `${id}-email`;
  const errorId = `${id}-error`;

  if (done) {
    return (
      <div
        ref={statusRef}
        tabIndex={-1}
        role="status"
        className="rounded-xl border border-emerald-400/40 bg-emerald-500/10 px-4 py-3 text-sm text-emerald-100 focus:outline-none"
      >
        {done}
      </div>
    );
  }

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      {error && (
        <Alert id={errorId} size="compact">
          {error}
        </Alert>
      )}
      <div className="space-y-2">
        <FieldLabel htmlFor={emailId}>Adresse e-mail</FieldLabel>
        <input
          ref={inputRef}
          id={emailId}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
          placeholder="vous@entreprise.fr"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={authInputClass}
        />
      </div>
      <AuthSubmitButton pending={request.isPending} icon={Mail} label="Recevoir un lien" pendingLabel="Envoi…" />
    </form>
  );
}
