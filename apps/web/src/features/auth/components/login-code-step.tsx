import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { FieldLabel } from '@/components/ui/field-label';
import { authInputClass } from './auth-styles';
import { AuthSubmitButton } from './auth-submit-button';
import type { LoginState } from './use-login';

/**
 * The login's second step, on an account with two-factor authentication: it takes the place of
 * the password once the password is right, and asks for the authenticator's code.
 */
export function LoginCodeStep({ id, login }: { id: string; login: LoginState }) {
  const { error, email, code, setCode, codeInput, submitting, onSubmitCode, backToPassword } = login;
  const codeId = `${id}-code`;
  const codeHintId = `${id}-code-hint`;
  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmitCode(event)}
      className="space-y-5"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      {error && (
        <Alert id={`${id}-error`} size="compact">
          {error}
        </Alert>
      )}
      <div className="space-y-2">
        <FieldLabel htmlFor={codeId}>Code de vérification</FieldLabel>
        <input
          id={codeId}
          name="code"
          type="text"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          ref={codeInput}
          maxLength={20}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          aria-describedby={codeHintId}
          className={`${authInputClass} font-mono tracking-widest`}
        />
        <p id={codeHintId} className="text-sm text-slate-300">
          Les 6 chiffres affichés par votre application d’authentification pour {email}, ou l’un de vos codes de secours.
        </p>
      </div>
      <AuthSubmitButton
        pending={submitting}
        disabled={!code.trim()}
        icon={ShieldCheck}
        label="Vérifier le code"
        pendingLabel="Vérification…"
      />
      <button
        type="button"
        onClick={backToPassword}
        className="inline-flex items-center gap-2 rounded-lg text-sm font-medium text-cyan-300 underline-offset-4 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Revenir au mot de passe
      </button>
    </form>
  );
}
