import { useEffect, useRef, useState, type FormEvent } from 'react';
import { DEFAULT_AFTER_LOGIN } from '@/config/constants';
import { useAuth } from '@/lib/auth';
import { discoverSso, ssoStartUrl } from '../api/sso';
import { isValidEmail } from '../email';

/** How long the address must rest before the server is asked whether its domain has single sign-on. */
const DISCOVER_DELAY_MS = 350;

/** Leaves the app for the organization's identity provider (a full page load: the provider's own pages); tests watch it. */
export const ssoNavigation = {
  goTo(url: string) {
    window.location.assign(url);
  },
};

/** What the login form's steps read and do. */
export type LoginState = ReturnType<typeof useLogin>;

/**
 * The login's state and its two requests: the password, then, on an account with two-factor
 * authentication, the authenticator code. Kept apart from the form so that both steps read the
 * same state (the email shown in the code's hint, the error, the request in flight).
 */
export function useLogin(
  onSuccess: () => void,
  { next = DEFAULT_AFTER_LOGIN, initialError = null }: { next?: string; initialError?: string | null } = {},
) {
  const { login, loginWithCode } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Here rather than in the password field: it survives the field hidden and shown again.
  const [showPassword, setShowPassword] = useState(false);
  const [remember, setRemember] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(initialError);
  // Single sign-on of the address's domain: the address it was asked for, and the answer (null: none).
  const [sso, setSso] = useState<{ email: string; url: string | null } | null>(null);
  // The person chose their password rather than single sign-on (when it is not compulsory).
  const [preferPassword, setPreferPassword] = useState(false);
  // Set once the password is right on an account with two-factor authentication: the code step.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const codeInput = useRef<HTMLInputElement>(null);
  // The code step takes the place of the password: the keyboard follows it there.
  useEffect(() => {
    if (challenge) codeInput.current?.focus();
  }, [challenge]);
  const emailValid = isValidEmail(email);
  const trimmed = email.trim();
  // Asked once the address rests a moment: the login page offers single sign-on instead of the password.
  useEffect(() => {
    if (!isValidEmail(trimmed) || sso?.email === trimmed) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void discoverSso(trimmed, controller.signal).then((found) => {
        if (!controller.signal.aborted) setSso({ email: trimmed, url: found?.url ?? null });
      });
    }, DISCOVER_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [trimmed, sso?.email]);
  const ssoUrl = sso?.email === trimmed && !preferPassword ? sso.url : null;

  const onEmailChange = (value: string) => {
    setEmail(value);
    setPreferPassword(false);
    if (!isValidEmail(value) && password) setPassword('');
  };

  const startSso = (url: string) => {
    setSubmitting(true);
    ssoNavigation.goTo(ssoStartUrl(url, next));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !emailValid || !email) return;
    if (ssoUrl) return startSso(ssoUrl);
    if (!password) {
      // Submitted before the question was answered: asked now.
      if (!preferPassword && sso?.email !== trimmed) {
        const found = await discoverSso(trimmed);
        setSso({ email: trimmed, url: found?.url ?? null });
        if (found?.url) startSso(found.url);
      }
      return;
    }
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

  return {
    email,
    emailValid,
    ssoUrl,
    /** Back to the password, for an address whose organization offers single sign-on without requiring it. */
    usePassword: () => setPreferPassword(true),
    onEmailChange,
    password,
    setPassword,
    showPassword,
    toggleShowPassword: () => setShowPassword((shown) => !shown),
    remember,
    setRemember,
    submitting,
    error,
    challenge,
    code,
    setCode,
    codeInput,
    onSubmit,
    onSubmitCode,
    backToPassword,
  };
}
