import { MailX } from 'lucide-react';
import { useNotificationPolicy } from '../api/get-notification-policy';

/** Says plainly when this server sends no e-mail, so that nobody counts on one. */
export function EmailNotice() {
  const { data } = useNotificationPolicy();
  if (!data || data.emailEnabled) return null;
  return (
    <p className="mb-6 flex items-start gap-3 rounded-2xl border border-amber-300/40 bg-amber-400/10 p-4 text-sm text-amber-100">
      <MailX className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <span>
        Les e-mails d’alerte sont désactivés sur ce serveur (aucun serveur SMTP configuré) : les alertes s’affichent ici, sur le tableau de
        bord et en direct.
      </span>
    </p>
  );
}
