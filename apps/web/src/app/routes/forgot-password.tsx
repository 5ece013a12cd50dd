import { AuthPageShell } from '@/features/auth/components/auth-page-shell';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

export default function ForgotPasswordRoute() {
  return (
    <AuthPageShell
      title="Mot de passe oublié"
      intro={'Saisissez l’adresse e-mail de votre compte\u202F: nous vous enverrons un lien pour choisir un nouveau mot de passe.'}
    >
      <ForgotPasswordForm />
    </AuthPageShell>
  );
}
