import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAuth } from '@/lib/auth';
import { isValidEmail } from '../email';

/** What the login form's steps read and do. */
export type LoginState = ReturnType<typeof useLogin>;

/**
 * The login's state and its two requests: the password, then, on an account with two-factor
 * authentication, the authenticator code. Kept apart from the form so that both steps read the
 * same state (the email shown in the code's hint, the error, the request in flight).
 */
export function useLogin(onSuccess: () => void) {
  const { login, loginWithCode } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Here rather than in the password field: it survives the field hidden and shown again.
  const [showPassword, setShowPassword] = useState(false);
  const [remember, setRemember] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Set once the password is right on an account with two-factor authentication: the code step.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const codeInput = useRef<HTMLInputElement>(null);
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

  return {
    email,
    emailValid,
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
