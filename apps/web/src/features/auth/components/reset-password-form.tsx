import { PASSWORD_MIN_LENGTH } from '@vigie/contract/values';
import { Eye, EyeOff, KeyRound } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { ApiError } from '@/lib/api-client';
import { useConfirmPasswordReset } from '../api/password-reset';
import { authInputClass, authSubmitClass } from './auth-styles';
import { AuthSubmitButton } from './auth-submit-button';
import { FieldLabel } from '@/components/ui/field-label';

export const RESET_PASSWORD_TEXT = {
  missingToken: 'Ce lien est incomplet\u202F: ouvrez-le tel qu’il figure dans l’e-mail, ou demandez-en un nouveau.',
  tooShort: `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`,
  mismatch: 'Les deux mots de passe ne sont pas identiques.',
  network: 'Le serveur ne répond pas. Vérifiez votre connexion internet, puis réessayez.',
  done: 'Mot de passe changé. Connectez-vous avec le nouveau.',
} as const;

/** The secret of a reset link: what follows `#` in `/reinitialiser-mot-de-passe#<token>`. */
export function tokenFromHash(hash: string): string | null {
  const token = hash.replace(/^#/, '');
  return /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : null;
}

type ResetPasswordFormProps = {
  /** The link's secret, read from the address's fragment (never sent to the server by the browser). */
  token: string | null;
};

type Failure = { message: string; field: 'password' | 'confirmation' | null; newLink: boolean };

/** The new password, twice; the link works once, and every session of the account ends. */
export function ResetPasswordForm({ token }: ResetPasswordFormProps) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [shown, setShown] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(
    token ? null : { message: RESET_PASSWORD_TEXT.missingToken, field: null, newLink: true },
  );
  const [done, setDone] = useState(false);
  const confirm = useConfirmPasswordReset();
  const id = useId();
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  const deadRef = useRef<HTMLDivElement>(null);
  const dead = failure?.newLink === true;

  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  // The link no longer works: the form goes, and focus moves to the message that says why.
  useEffect(() => {
    if (dead && token) deadRef.current?.focus();
  }, [dead, token]);

  const fail = (next: Failure) => {
    setFailure(next);
    if (!next.newLink) (next.field === 'confirmation' ? confirmationRef : passwordRef).current?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token || confirm.isPending) return;
    if (Array.from(password).length < PASSWORD_MIN_LENGTH)
      return fail({ message: RESET_PASSWORD_TEXT.tooShort, field: 'password', newLink: false });
    if (password !== confirmation) return fail({ message: RESET_PASSWORD_TEXT.mismatch, field: 'confirmation', newLink: false });
    setFailure(null);
    try {
      await confirm.mutateAsync({ token, password });
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 410)) {
        fail({ message: error.message, field: null, newLink: true });
      } else if (error instanceof ApiError && error.status !== 0) {
        fail({ message: error.message, field: 'password', newLink: false });
      } else {
        fail({ message: RESET_PASSWORD_TEXT.network, field: null, newLink: false });
      }
    }
  };

  if (done) {
    return (
      <div ref={doneRef} tabIndex={-1} role="status" className="space-y-4 focus:outline-none">
        <p className="rounded-xl border border-emerald-400/40 bg-emerald-500/10 px-4 py-3 text-sm text-emerald-100">
          {RESET_PASSWORD_TEXT.done}
        </p>
        <Link to="/login" className={authSubmitClass}>
          Se connecter
        </Link>
      </div>
    );
  }

  const passwordId = `${id}-password`;
  const confirmationId = `${id}-confirmation`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const newLink = (
    <Link to="/mot-de-passe-oublie" className="font-semibold text-red-50 underline underline-offset-4">
      Demander un nouveau lien
    </Link>
  );

  if (!token || dead) {
    return (
      <div ref={deadRef} tabIndex={-1} className="focus:outline-none">
        <Alert id={errorId} size="compact">
          <p>{failure?.message ?? RESET_PASSWORD_TEXT.missingToken}</p>
          <p className="mt-2">{newLink}</p>
        </Alert>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      {failure && (
        <Alert id={errorId} size="compact">
          {failure.message}
        </Alert>
      )}
      <div className="space-y-2">
        <FieldLabel htmlFor={passwordId}>Nouveau mot de passe</FieldLabel>
        <div className="relative">
          <input
            ref={passwordRef}
            id={passwordId}
            name="new-password"
            type={shown ? 'text' : 'password'}
            autoComplete="new-password"
            required
            autoFocus
            minLength={PASSWORD_MIN_LENGTH}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={failure?.field === 'password' ? true : undefined}
            aria-describedby={failure?.field === 'password' ? `${hintId} ${errorId}` : hintId}
            className={`${authInputClass} pr-12`}
          />
          <button
            type="button"
            onClick={() => setShown((current) => !current)}
            aria-label={shown ? 'Masquer les mots de passe' : 'Afficher les mots de passe'}
            aria-controls={`${passwordId} ${confirmationId}`}
            className="absolute inset-y-1.5 right-1.5 grid w-10 place-items-center rounded-lg text-slate-300 transition-colors hover:bg-white/5 hover:text-white"
          >
            {shown ? <EyeOff className="size-5" aria-hidden="true" /> : <Eye className="size-5" aria-hidden="true" />}
          </button>
        </div>
        <p id={hintId} className="text-sm text-slate-400">
          {PASSWORD_MIN_LENGTH} caractères minimum.
        </p>
      </div>
      <div className="space-y-2">
        <FieldLabel htmlFor={confirmationId}>Confirmez le nouveau mot de passe</FieldLabel>
        <input
          ref={confirmationRef}
          id={confirmationId}
          name="confirm-password"
          type={shown ? 'text' : 'password'}
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          aria-invalid={failure?.field === 'confirmation' ? true : undefined}
          aria-describedby={failure?.field === 'confirmation' ? errorId : undefined}
          className={authInputClass}
        />
      </div>
      <AuthSubmitButton pending={confirm.isPending} icon={KeyRound} label="Changer le mot de passe" pendingLabel="Enregistrement…" />
    </form>
  );
}
