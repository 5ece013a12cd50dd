import { LoaderCircle, ShieldAlert, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { DetailSection } from '@/components/ui/section';
import { PRODUCT_NAME } from '@/config/constants';
import { useApiKeys } from '@/features/team/api/key-queries';
import { useInvitations } from '@/features/team/api/get-invitations';
import { useMembers } from '@/features/team/api/get-members';
import { ApiKeyForm } from '@/features/team/components/api-key-form';
import { ApiKeyList } from '@/features/team/components/api-key-list';
import { InvitationList } from '@/features/team/components/invitation-list';
import { InviteForm } from '@/features/team/components/invite-form';
import { useRegions } from '@/features/sites/api/get-overview';
import { useSites } from '@/features/sites/api/get-sites';
import { MemberList } from '@/features/team/components/member-list';
import { ScimSection } from '@/features/team/components/scim-section';
import { SecurityPolicyForm } from '@/features/auth/components/security-policy-form';
import { SsoSettingsForm } from '@/features/auth/components/sso-settings-form';
import { useAuth } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { useCan, usePermissions } from '@/lib/permissions';
import { endpoints } from '@vigie/contract/routes';
import { LOAD_ERROR } from '@/lib/fallback-text';

const card = 'rounded-2xl border border-white/10 bg-slate-900/60 p-5 shadow-lg shadow-black/20 backdrop-blur sm:p-6';

function Loading({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
      <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
      {children}
    </p>
  );
}

/** /dashboard/equipe: the organization's members and invitations (docs/api.md, Membres et invitations); managed by admins only. */
export default function TeamRoute() {
  const { user } = useAuth();
  const { manageMembers } = usePermissions();
  const members = useMembers();
  const invitations = useInvitations({ enabled: manageMembers });
  // API keys: admins who see the whole organization (docs/api.md, Clés d'API).
  const manageKeys = useCan()(endpoints.apiKeys.list);
  const apiKeys = useApiKeys({ enabled: manageKeys });
  // Single sign-on: the same admins (docs/api.md, Authentification unique).
  const manageSso = useCan()(endpoints.organizationSso.update);
  // SCIM provisioning: the same admins (docs/api.md, Provisionnement SCIM).
  const manageScim = useCan()(endpoints.scimToken.create);
  // For a chain: the shops and regions an invited person may be given as what they see.
  const sites = useSites();
  const regions = useRegions();
  const count = members.data?.length;

  return (
    <>
      <title>{`Équipe · ${PRODUCT_NAME}`}</title>
      <div className="mb-8 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <Users className="size-7 text-cyan-300" aria-hidden="true" />
          Équipe
        </h1>
        <p className="mt-3 text-slate-300">
          Qui accède à {user?.organization.name ?? 'votre organisation'}, et pour y faire quoi{'\u202F'}: les administrateurs gèrent tout,
          l’équipe comprise{'\u202F'}; les responsables gèrent les appareils, les sites, les alertes et les rapports{'\u202F'}; les lecteurs
          consultent et acquittent les alertes.
        </p>
      </div>

      {!manageMembers && (
        <p className="mb-8 flex items-start gap-3 rounded-2xl border border-amber-300/40 bg-amber-400/10 p-4 text-sm text-amber-100">
          <ShieldAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <span>
            Seuls les administrateurs gèrent l’équipe{'\u202F'}: inviter, changer un rôle ou retirer un membre. Adressez-vous à un
            administrateur de votre organisation.
          </span>
        </p>
      )}

      <div className="space-y-6">
        {manageMembers && (
          <section className={card}>
            <InviteForm sites={sites.data ?? []} regions={regions.data ?? []} />
          </section>
        )}

        <DetailSection
          id="members-title"
          title="Membres"
          description={count === undefined ? undefined : count === 1 ? '1 membre' : `${count} membres`}
        >
          {members.isError ? (
            <Alert>{errorMessage(members.error, LOAD_ERROR)}</Alert>
          ) : !members.data ? (
            <Loading>Chargement des membres…</Loading>
          ) : (
            <MemberList
              members={members.data}
              currentUserId={user?.id}
              canManage={manageMembers}
              organizationName={user?.organization.name}
              sites={sites.data ?? []}
              regions={regions.data ?? []}
            />
          )}
        </DetailSection>

        {manageMembers && (
          <DetailSection id="security-title" title="Sécurité des comptes">
            <SecurityPolicyForm />
          </DetailSection>
        )}

        {manageSso && (
          <DetailSection
            id="sso-title"
            title="Authentification unique"
            description="Vos membres se connectent avec le compte de votre fournisseur d’identité OpenID Connect (Microsoft Entra ID, Google Workspace, Okta, Keycloak…)."
          >
            <SsoSettingsForm />
          </DetailSection>
        )}

        {manageMembers && (
          <DetailSection
            id="invitations-title"
            title="Invitations en attente"
            description="Un lien d’invitation ne sert qu’une fois, jusqu’à sa date d’expiration. Le renvoyer en crée un nouveau."
          >
            {invitations.isError ? (
              <Alert>{errorMessage(invitations.error, LOAD_ERROR)}</Alert>
            ) : !invitations.data ? (
              <Loading>Chargement des invitations…</Loading>
            ) : (
              <InvitationList invitations={invitations.data} sites={sites.data ?? []} regions={regions.data ?? []} />
            )}
          </DetailSection>
        )}

        {manageKeys && (
          <DetailSection
            id="api-keys-title"
            title="Clés d’API"
            description="Une clé laisse un programme lire (Lecteur) ou gérer (Responsable) ce que son périmètre voit, sans jamais gérer l’équipe ni ses accès. Elle n’est montrée qu’une fois, à sa création."
          >
            <div className="space-y-6">
              <ApiKeyForm sites={sites.data ?? []} regions={regions.data ?? []} />
              {apiKeys.isError ? (
                <Alert>{errorMessage(apiKeys.error, LOAD_ERROR)}</Alert>
              ) : !apiKeys.data ? (
                <Loading>Chargement des clés d’API…</Loading>
              ) : (
                <ApiKeyList apiKeys={apiKeys.data} />
              )}
            </div>
          </DetailSection>
        )}

        {manageScim && (
          <DetailSection
            id="scim-title"
            title="Provisionnement SCIM"
            description="Votre fournisseur d’identité (Microsoft Entra ID, Okta…) ajoute ses utilisateurs comme membres, au rôle par défaut de l’authentification unique (Lecteur sans elle), et les retire dès qu’ils sont désactivés. Donnez-lui l’URL du service et le jeton, montré une seule fois ; un nouveau jeton remplace le précédent."
          >
            <ScimSection />
          </DetailSection>
        )}
      </div>
    </>
  );
}
