import type { Member } from '@vigie/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/dialog';
import { FieldLabel } from '@/components/ui/field-label';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { useResetMemberTwoFactor } from '../api/member-mutations';
import { memberLabel } from '../team-format';

/**
 * An admin resets a member's two-factor authentication (`member`; closed while null), confirmed
 * with the admin's own password. A failure is said in the dialog, which stays open.
 */
export function ResetTwoFactorDialog({ member: resetting, onClose }: { member: Member | null; onClose: () => void }) {
  const resetTwoFactor = useResetMemberTwoFactor();
  const [adminPassword, setAdminPassword] = useState('');
  const [resetProblem, setResetProblem] = useState<string | null>(null);
  const passwordId = useId();
  const passwordRef = useRef<HTMLInputElement>(null);
  // The password is what the admin types first: it takes the focus the dialog gave « Annuler ».
  useEffect(() => {
    if (resetting) passwordRef.current?.focus();
  }, [resetting]);

  // Closed, it forgets the password typed and what was said of it.
  const closeReset = () => {
    onClose();
    setAdminPassword('');
    setResetProblem(null);
  };

  const onResetTwoFactor = () => {
    if (!resetting) return;
    const member = resetting;
    if (!adminPassword) return setResetProblem('Saisissez votre mot de passe pour confirmer.');
    setResetProblem(null);
    resetTwoFactor.mutate(
      { id: member.id, password: adminPassword },
      {
        onSuccess: () => {
          closeReset();
          showToast({ message: `Double authentification de ${memberLabel(member)} réinitialisée\u202F: ses sessions sont fermées.` });
        },
        // Shown in the dialog, which stays open: a mistyped password is typed again there.
        onError: (failure) => setResetProblem(errorMessage(failure, 'La double authentification n’a pas été réinitialisée.')),
      },
    );
  };

  return (
    <ConfirmDialog
      open={resetting !== null}
      title={
        resetting
          ? `Réinitialiser la double authentification de ${memberLabel(resetting)}\u202F?`
          : 'Réinitialiser la double authentification\u202F?'
      }
      confirmLabel={resetTwoFactor.isPending ? 'Réinitialisation…' : 'Réinitialiser'}
      busy={resetTwoFactor.isPending}
      onConfirm={onResetTwoFactor}
      onCancel={closeReset}
    >
      <p>
        {`Pour un membre qui a perdu son téléphone et ses codes de secours, après avoir vérifié que c’est bien cette personne (de vive voix, par exemple). Elle est déconnectée partout à l’instant, prévenue par e-mail, se connecte ensuite avec son seul mot de passe et doit réactiver la double authentification dans «\u202FMon compte\u202F».`}
      </p>
      <FieldLabel htmlFor={passwordId} className="mt-4">
        Votre mot de passe
      </FieldLabel>
      <input
        ref={passwordRef}
        id={passwordId}
        type="password"
        autoComplete="current-password"
        value={adminPassword}
        onChange={(event) => setAdminPassword(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onResetTwoFactor();
        }}
        aria-invalid={resetProblem ? true : undefined}
        aria-describedby={`${passwordId}-status`}
        className={`mt-1.5 ${inputClass}`}
      />
      <FormStatus id={`${passwordId}-status`} error={resetProblem} className="mt-2" />
    </ConfirmDialog>
  );
}
