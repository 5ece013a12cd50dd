import { useState } from 'react';
import { useLocation } from 'react-router';
import { AuthPageShell } from '@/features/auth/components/auth-page-shell';
import { ResetPasswordForm, tokenFromHash } from '@/features/auth/components/reset-password-form';

export default function ResetPasswordRoute() {
  const location = useLocation();
  // Read once: the secret stays in the fragment, which browsers never send to a server.
  const [token] = useState(() => tokenFromHash(location.hash));
  return (
    <AuthPageShell title="Nouveau mot de passe" intro="Choisissez le nouveau mot de passe de votre compte Vigie.">
      <ResetPasswordForm token={token} />
    </AuthPageShell>
  );
}
