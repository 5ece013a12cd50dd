import { ArrowLeft, CheckCircle2, Eye, EyeOff, LoaderCircle, LogIn, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { useAuth } from '@/lib/auth';
import { isValidEmail } from '../email';

type LoginFormProps = {
  onSuccess: () => void;
};

const inputClass =
  'block w-full rounded-xl border border-white/10 bg-slate-900/70 px-4 py-3 text-base text-white placeholder:text-slate-400 shadow-inner shadow-black/20 transition-colors focus:border-cyan-300/70 focus:outline-none focus-visible:ring-2 focus-visible:ring-cyan-300/40';

/** Email first; the rest of the form appears once the email looks valid. */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const { login, loginWithCode } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [remember, setRemember] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Set once the password is right on an account with two-factor authentication: the code step.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const codeInput = useRef<HTMLInputElement>(null);
  const id = useId();
  // The code step takes the place of the password: the keyboard follows it there.
  useEffect(() => {
    if (challenge) codeInput.current?.focus();
  }, [challenge]);
  const emailValid = isValidEmail(email);

  const onEmailChange = (value: string) => {
    setEmail(value);
    if (!isValidEmail(value) && password) setPassword('');
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !emailValid || !email || !password) return;
    setError(null);
    setSubmitting(true);
    try {
      const result = await login(email, password, remember);
      if (result.success) {
        onSuccess();
        return;
      }
      if (result.challenge) {
        setPassword('');
        setCode('');
        setChallenge(result.challenge);
        return;
      }
      setError(result.error || 'Erreur de connexion');
    } catch {
      setError("Une erreur inattendue s'est produite");
    } finally {
      setSubmitting(false);
    }
  };

  const onSubmitCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !challenge) return;
    if (!code.trim()) return setError('Saisissez le code de votre application d’authentification.');
    setError(null);
    setSubmitting(true);
    try {
      const result = await loginWithCode(challenge, code);
      if (result.success) {
        onSuccess();
        return;
      }
      setCode('');
      setError(result.error || 'Erreur de connexion');
      codeInput.current?.focus();
    } catch {
      setError("Une erreur inattendue s'est produite");
    } finally {
      setSubmitting(false);
    }
  };

  const backToPassword = () => {
    setChallenge(null);
    setCode('');
    setError(null);
  };

  const emailId = `${id}-email`;
  const emailHintId = `${id}-email-hint`;
  const passwordId = `${id}-password`;

  if (challenge) {
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
          <label htmlFor={codeId} className="block text-sm font-medium text-slate-200">
            Code de vérification
          </label>
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
            className={`${inputClass} font-mono tracking-widest`}
          />
          <p id={codeHintId} className="text-sm text-slate-300">
            Les 6 chiffres affichés par votre application d’authentification pour {email}, ou l’un de vos codes de secours.
          </p>
        </div>
        <button
          type="submit"
          disabled={submitting || !code.trim()}
          className="flex w-full items-center justify-center gap-2 rounded-xl bg-cyan-400 px-4 py-3 text-base font-semibold text-slate-950 shadow-lg shadow-cyan-500/20 transition hover:bg-cyan-300 disabled:cursor-not-allowed disabled:bg-slate-600 disabled:text-slate-200 disabled:shadow-none"
        >
          {submitting ? (
            <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
          ) : (
            <ShieldCheck className="size-5" aria-hidden="true" />
          )}
          {submitting ? 'Vérification…' : 'Vérifier le code'}
        </button>
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

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-describedby={error ? `${id}-error` : undefined}>
      {error && (
        <Alert id={`${id}-error`} size="compact">
          {error}
        </Alert>
      )}

      <div className="space-y-2">
        <label htmlFor={emailId} className="block text-sm font-medium text-slate-200">
          Adresse e-mail
        </label>
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
          className={inputClass}
        />
        {emailValid && (
          <p id={emailHintId} className="flex items-center gap-1.5 text-sm font-medium text-emerald-400">
            <CheckCircle2 className="size-4" aria-hidden="true" />
            Email valide
          </p>
        )}
      </div>

      {emailValid && (
        <div className="animate-fade-up space-y-5">
          <div className="space-y-2">
            <label htmlFor={passwordId} className="block text-sm font-medium text-slate-200">
              Mot de passe
            </label>
            <div className="relative">
              <input
                id={passwordId}
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                required
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                className={`${inputClass} pr-12`}
              />
              <button
                type="button"
                onClick={() => setShowPassword((shown) => !shown)}
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

          <button
            type="submit"
            disabled={submitting || !email || !password}
            className="flex w-full items-center justify-center gap-2 rounded-xl bg-cyan-400 px-4 py-3 text-base font-semibold text-slate-950 shadow-lg shadow-cyan-500/20 transition hover:bg-cyan-300 disabled:cursor-not-allowed disabled:bg-slate-600 disabled:text-slate-200 disabled:shadow-none"
          >
            {submitting ? (
              <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
            ) : (
              <LogIn className="size-5" aria-hidden="true" />
            )}
            {submitting ? 'Connexion...' : 'Se connecter'}
          </button>
        </div>
      )}
    </form>
  );
}
