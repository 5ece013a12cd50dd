import { ShieldAlert } from 'lucide-react';
import { DetailSection } from '@/components/ui/section';
import { PRODUCT_NAME } from '@/config/constants';
import { PasswordForm } from '@/features/auth/components/password-form';
import { SessionsPanel } from '@/features/auth/components/sessions-panel';
import { TotpPanel } from '@/features/auth/components/totp-panel';
import { DigestPanel } from '@/features/digest/digest-panel';
import { PhonePanel } from '@/features/on-call/components/phone-panel';
import { PushPanel } from '@/features/push/push-panel';
import { ThemePanel } from '@/features/theme/theme-panel';
import { ROLE_LABELS } from '@/lib/permissions';
import { useAuth } from '@/lib/auth';

/** /dashboard/compte: who is signed in, alerts on this device, the daily digest, the on-call phone, a new password, two-factor authentication and the way out of every session. */
export default function AccountRoute() {
  const { user } = useAuth();
  return (
    <>
      <title>{`Mon compte · ${PRODUCT_NAME}`}</title>
      <h1 className="mb-2 text-3xl font-bold tracking-tight text-white">Mon compte</h1>
      {user && (
        <dl className="mb-8 grid max-w-xl grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
          <dt className="text-slate-400">Nom</dt>
          <dd className="min-w-0 truncate text-white">{user.name?.trim() || 'Sans nom'}</dd>
          <dt className="text-slate-400">Adresse e-mail</dt>
          <dd className="min-w-0 [overflow-wrap:anywhere] text-white">{user.email}</dd>
          <dt className="text-slate-400">Rôle</dt>
          <dd className="text-white">{ROLE_LABELS[user.role]}</dd>
          <dt className="text-slate-400">Organisation</dt>
          <dd className="min-w-0 truncate text-white">{user.organization.name}</dd>
        </dl>
      )}
      {user?.totpSetupRequired && (
        <p
          data-testid="totp-required"
          className="mb-6 flex max-w-3xl items-start gap-3 rounded-2xl border border-amber-300/40 bg-amber-400/10 p-4 text-sm text-amber-100"
        >
          <ShieldAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <span>
            {user.organization.name} exige la double authentification des administrateurs{' '}: activez-la ci-dessous pour accéder au reste
            de Vigie.
          </span>
        </p>
      )}
      <div className="grid gap-6">
        <DetailSection
          id="compte-notifications"
          title="Alertes sur cet appareil"
          description={'Une notification du système, même l’application fermée\u202F: le capteur, son magasin et la valeur.'}
        >
          <PushPanel />
        </DetailSection>
        {!user?.totpSetupRequired && (
          <DetailSection
            id="compte-resume"
            title="Résumé quotidien"
            description={
              'Les alertes d’hier dans vos magasins, en un e-mail chaque matin\u00a0: ce qui a dépassé, combien de temps, et ce qui reste ouvert.'
            }
          >
            <DigestPanel />
          </DetailSection>
        )}
        {/* Refused by the server until two-factor authentication is on, as is the rest of Vigie. */}
        {!user?.totpSetupRequired && (
          <DetailSection
            id="compte-telephone"
            title="Téléphone et astreinte"
            description="Le portable sur lequel l’astreinte vous envoie un SMS, puis vous appelle, pour une alerte critique quand vous êtes d’astreinte."
          >
            <PhonePanel />
          </DetailSection>
        )}
        <DetailSection id="compte-apparence" title="Apparence" description="Sur cet appareil, pour toutes les pages après la connexion.">
          <ThemePanel />
        </DetailSection>
        <DetailSection
          id="compte-double-authentification"
          title="Double authentification"
          description="Un code à usage unique, en plus du mot de passe, à chaque connexion."
        >
          <TotpPanel />
        </DetailSection>
        <DetailSection
          id="compte-mot-de-passe"
          title="Mot de passe"
          description="Changer de mot de passe ferme toutes vos autres sessions, sur tous vos appareils."
        >
          <PasswordForm />
        </DetailSection>
        <DetailSection id="compte-sessions" title="Sessions">
          <SessionsPanel />
        </DetailSection>
      </div>
    </>
  );
}
