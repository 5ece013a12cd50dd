import { CheckCircle2, Eye, EyeOff, KeyRound, LogIn } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { FieldLabel } from '@/components/ui/field-label';
import { authInputClass } from './auth-styles';
import { AuthSubmitButton } from './auth-submit-button';
import { LoginCodeStep } from './login-code-step';
import { useLogin, type LoginState } from './use-login';

type LoginFormProps = {
  onSuccess: () => void;
  /** The page to reach once signed in (through single sign-on too: it comes back to it). */
  next?: string;
  /** Why the previous sign-in did not finish (single sign-on's return), shown above the form. */
  initialError?: string | null;
};

/** Email first; the rest of the form appears once the email looks valid. */
export function LoginForm({ onSuccess, next, initialError = null }: LoginFormProps) {
  const login = useLogin(onSuccess, { ...(next ? { next } : {}), initialError });
  const id = useId();
  if (login.challenge) return <LoginCodeStep id={id} login={login} />;

  const { error, email, emailValid, onEmailChange, onSubmit } = login;
  const emailId = `${id}-email`;
  const emailHintId = `${id}-email-hint`;
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-describedby={error ? `${id}-error` : undefined}>
      {error && (
        <Alert id={`${id}-error`} size="compact">
          {error}
        </Alert>
      )}

      <div className="space-y-2">
        <FieldLabel htmlFor={emailId}>Adresse e-mail</FieldLabel>
        <input
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
          onChange={(event) => onEmailChange(event.target.value)}
          aria-describedby={emailValid ? emailHintId : undefined}
          className={authInputClass}
        />
        {emailValid && (
          <p id={emailHintId} className="flex items-center gap-1.5 text-sm font-medium text-emerald-400">
            <CheckCircle2 className="size-4" aria-hidden="true" />
            Email valide
          </p>
        )}
      </div>

      {emailValid && (login.ssoUrl ? <SsoStep login={login} /> : <PasswordStep id={id} login={login} />)}
    </form>
  );
}

/** Instead of the password, for an address whose organization signs in through its identity provider. */
function SsoStep({ login }: { login: LoginState }) {
  return (
    <div className="animate-fade-up space-y-4">
      <p className="text-sm text-slate-300">Votre organisation vous connecte par son fournisseur d’identité.</p>
      <AuthSubmitButton
        pending={login.submitting}
        icon={KeyRound}
        label="Se connecter avec l’authentification unique"
        pendingLabel="Redirection…"
      />
      <button
        type="button"
        onClick={login.usePassword}
        className="w-full rounded-lg px-3 py-2 text-sm font-medium text-slate-300 underline-offset-4 hover:text-white hover:underline"
      >
        Utiliser plutôt mon mot de passe
      </button>
    </div>
  );
}

/** What follows a valid email: the password, « Se souvenir de moi », the forgotten password's link and the button. */
function PasswordStep({ id, login }: { id: string; login: LoginState }) {
  const { email, password, setPassword, showPassword, toggleShowPassword, remember, setRemember, submitting } = login;
  const passwordId = `${id}-password`;
  return (
    <div className="animate-fade-up space-y-5">
      <div className="space-y-2">
        <FieldLabel htmlFor={passwordId}>Mot de passe</FieldLabel>
        <div className="relative">
          <input
            id={passwordId}
            name="password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            className={`${authInputClass} pr-12`}
          />
          <button
            type="button"
            onClick={toggleShowPassword}
            aria-label={showPassword ? 'Masquer le mot de passe' : 'Afficher le mot de passe'}
            aria-controls={passwordId}
            className="absolute inset-y-1.5 right-1.5 grid w-10 place-items-center rounded-lg text-slate-300 transition-colors hover:bg-white/5 hover:text-white"
          >
            {showPassword ? <EyeOff className="size-5" aria-hidden="true" /> : <Eye className="size-5" aria-hidden="true" />}
          </button>
        </div>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <label className="inline-flex cursor-pointer items-center gap-2 text-slate-300">
          <input
            type="checkbox"
            name="remember"
            checked={remember}
            onChange={(event) => setRemember(event.target.checked)}
            className="size-4 rounded border-white/20 bg-slate-900 accent-cyan-400"
          />
          Se souvenir de moi
        </label>
        <Link to="/mot-de-passe-oublie" className="font-medium text-cyan-300 underline-offset-4 hover:underline">
          Mot de passe oublié{'\u202F'}?
        </Link>
      </div>

      <AuthSubmitButton pending={submitting} disabled={!email || !password} icon={LogIn} label="Se connecter" pendingLabel="Connexion..." />
    </div>
  );
}
