import { MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { useSignOutHome } from '../use-sign-out-home';
import { errorMessage } from '@/lib/errors';
import { useLogoutEverywhere } from '../api/account-mutations';

/** « Se déconnecter de tous les appareils »: every session ends, this one too, then home. */
export function SessionsPanel() {
  const logoutEverywhere = useLogoutEverywhere();
  const signOutHome = useSignOutHome();
  const [problem, setProblem] = useState<string | null>(null);

  return (
    <div className="grid gap-3">
      <p className="text-sm text-slate-300">
        Un téléphone perdu, un poste partagé en magasin{'\u202F'}: fermez d’un geste toutes les sessions ouvertes avec votre compte,
        celle-ci comprise.
      </p>
      <div>
        <Button
          variant="danger"
          busy={logoutEverywhere.isPending}
          icon={<MonitorSmartphone className="size-4" aria-hidden="true" />}
          onClick={() => {
            setProblem(null);
            logoutEverywhere.mutate(undefined, {
              onSuccess: signOutHome,
              onError: (error) => setProblem(errorMessage(error, 'Les sessions n’ont pas pu être fermées.')),
            });
          }}
        >
          Se déconnecter de tous les appareils
        </Button>
      </div>
      <FormStatus error={problem} />
    </div>
  );
}
