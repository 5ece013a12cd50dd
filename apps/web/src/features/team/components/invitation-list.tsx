import type { Invitation, Region, Site } from '@vigie/contract';
import { Ban, RotateCw } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { showToast } from '@/components/ui/toast';
import { useNow } from '@/hooks/use-now';
import { errorMessage } from '@/lib/errors';
import { ROLE_LABELS } from '@/lib/permissions';
import { useResendInvitation, useRevokeInvitation } from '../api/invitation-mutations';
import { HandoverLink } from './handover-link';
import { expiryText, isExpired } from '../team-format';

/** What an invitation will see, as « Accès : … » says it: its shops, then its regions, or the whole organization. */
export function accessText(scope: Invitation['scope'], sites: readonly Site[], regions: readonly Region[]): string {
  if (!scope) return 'toute l’organisation';
  const siteNames = new Map(sites.map((site) => [site.id, site.name]));
  const regionNames = new Map(regions.map((region) => [region.id, region.name]));
  const names = [
    ...scope.siteIds.map((id) => siteNames.get(id) ?? 'un site'),
    ...scope.regionIds.map((id) => `région ${regionNames.get(id) ?? '…'}`),
  ];
  return names.join(', ');
}

/** Invitations not accepted yet, with what each will see and their expiry; each can be sent again or revoked. */
export function InvitationList({
  invitations,
  sites = [],
  regions = [],
}: {
  invitations: Invitation[];
  sites?: readonly Site[];
  regions?: readonly Region[];
}) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [error, setError] = useState<string | null>(null);
  const [handover, setHandover] = useState<{ email: string; link: string } | null>(null);
  const now = useNow();

  if (invitations.length === 0) {
    return <p className="text-sm text-slate-300">Aucune invitation en attente.</p>;
  }

  const onResend = (invitation: Invitation) => {
    setError(null);
    setHandover(null);
    resend.mutate(invitation.id, {
      onSuccess: ({ link }) =>
        link ? setHandover({ email: invitation.email, link }) : showToast({ message: `Invitation renvoyée à ${invitation.email}.` }),
      onError: (failure) => setError(errorMessage(failure, 'L’invitation n’a pas été renvoyée.')),
    });
  };

  const onRevoke = (invitation: Invitation) => {
    setError(null);
    revoke.mutate(invitation.id, {
      onSuccess: () => showToast({ message: `Invitation de ${invitation.email} révoquée\u202F: son lien ne fonctionne plus.` }),
      onError: (failure) => setError(errorMessage(failure, 'L’invitation n’a pas été révoquée.')),
    });
  };

  return (
    <div className="space-y-4">
      {error && <Alert onDismiss={() => setError(null)}>{error}</Alert>}
      {handover && <HandoverLink email={handover.email} link={handover.link} />}
      <ul className="divide-y divide-white/10" aria-label="Invitations en attente">
        {invitations.map((invitation) => {
          const expired = isExpired(invitation.expiresAt, now);
          const busy = (resend.isPending && resend.variables === invitation.id) || (revoke.isPending && revoke.variables === invitation.id);
          return (
            <li
              key={invitation.id}
              data-testid="invitation"
              className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center"
            >
              <div className="min-w-0 flex-1">
                <p className="font-medium [overflow-wrap:anywhere] text-white">{invitation.email}</p>
                <p className="text-sm text-slate-300">
                  {ROLE_LABELS[invitation.role]} · Accès{'\u202F'}: {accessText(invitation.scope, sites, regions)} ·{' '}
                  <time dateTime={invitation.expiresAt} className={expired ? 'font-semibold text-amber-200' : undefined}>
                    {expiryText(invitation.expiresAt, now)}
                  </time>
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  busy={resend.isPending && resend.variables === invitation.id}
                  disabled={busy}
                  onClick={() => onResend(invitation)}
                  aria-label={`Renvoyer l’invitation de ${invitation.email}`}
                  icon={<RotateCw className="size-4" aria-hidden="true" />}
                >
                  Renvoyer
                </Button>
                <Button
                  variant="danger"
                  size="sm"
                  busy={revoke.isPending && revoke.variables === invitation.id}
                  disabled={busy}
                  onClick={() => onRevoke(invitation)}
                  aria-label={`Révoquer l’invitation de ${invitation.email}`}
                  icon={<Ban className="size-4" aria-hidden="true" />}
                >
                  Révoquer
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
