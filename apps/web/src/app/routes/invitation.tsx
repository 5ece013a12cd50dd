import { ArrowLeft, LoaderCircle, Users } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { DEFAULT_AFTER_LOGIN } from '@/config/constants';
import { AuthPageShell } from '@/features/auth/components/auth-page-shell';
import { INVITATION_TOKEN_PATTERN, useInvitationPreview } from '@/features/team/api/accept-invitation';
import { AcceptInvitationForm } from '@/features/team/components/accept-invitation-form';
import { expiryText } from '@/features/team/team-format';
import { useNow } from '@/hooks/use-now';
import { errorMessage } from '@/lib/errors';
import { ROLE_LABELS } from '@/lib/permissions';

/** The secret of the link: in the fragment (`/invitation#<token>`), which never reaches a server's logs. */
function tokenOf(hash: string): string {
  const raw = hash.replace(/^#/, '');
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    return '';
  }
}

/** /invitation#<token>: an invited person joins the organization with a name and a password. */
export default function InvitationRoute() {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const token = tokenOf(hash);
  const valid = INVITATION_TOKEN_PATTERN.test(token);
  const preview = useInvitationPreview(token);
  const invitation = preview.data;
  const now = useNow();
  const failure = !valid
    ? 'Le lien d’invitation est invalide ou incomplet. Vérifiez qu’il a été copié en entier.'
    : preview.isError
      ? errorMessage(preview.error, 'Cette invitation n’est plus valable.')
      : null;

  return (
    <AuthPageShell
      title={invitation ? `Rejoindre ${invitation.organization.name}` : 'Invitation'}
      back={{ to: '/', label: 'Retour à l’accueil' }}
    >
      {failure ? (
        <>
          <h1 className="mb-5 text-2xl font-bold text-white">Invitation</h1>
          <Alert>{failure}</Alert>
          <p className="mt-5 text-sm text-slate-300">
            Demandez à un administrateur de votre organisation de vous envoyer une nouvelle invitation.
          </p>
          <Link
            to="/"
            className="mt-5 inline-flex items-center gap-2 rounded-xl border border-cyan-300/30 bg-cyan-400/10 px-4 py-2.5 text-sm font-semibold text-cyan-100 hover:border-cyan-300/60 hover:bg-cyan-400/20"
          >
            <ArrowLeft className="size-4" aria-hidden="true" />
            Retourner à l’accueil
          </Link>
        </>
      ) : !invitation ? (
        <p role="status" className="flex items-center gap-2 text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Lecture de l’invitation…
        </p>
      ) : (
        <>
          <span className="grid size-12 place-items-center rounded-2xl bg-gradient-to-br from-cyan-400/20 to-violet-500/20 text-cyan-200">
            <Users className="size-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-2xl font-bold [overflow-wrap:anywhere] text-white">{`Rejoindre ${invitation.organization.name}`}</h1>
          <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-400">{'Adresse e-mail\u202F:'}</dt>
            <dd className="font-medium [overflow-wrap:anywhere] text-white">{invitation.email}</dd>
            <dt className="text-slate-400">{'Rôle\u202F:'}</dt>
            <dd className="font-medium text-white">{ROLE_LABELS[invitation.role]}</dd>
          </dl>
          <p className="mt-3 text-sm text-slate-400">{`${expiryText(invitation.expiresAt, now)}.`}</p>
          <p className="mt-4 text-sm text-slate-300">Choisissez votre nom et votre mot de passe pour créer votre compte.</p>
          <div className="mt-6">
            <AcceptInvitationForm
              token={token}
              onAccepted={() => void navigate(DEFAULT_AFTER_LOGIN, { replace: true, state: { signedIn: true } })}
            />
          </div>
        </>
      )}
    </AuthPageShell>
  );
}
