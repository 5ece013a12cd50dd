import { BellOff, BellRing } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { currentPushState, pushErrorMessage, type PushState, turnPushOff, turnPushOn } from './push-subscription';

const STATE_TEXT: Record<PushState, string> = {
  unsupported: 'Ce navigateur ne reçoit pas de notifications poussées (ou la page n’est pas servie en HTTPS).',
  denied: 'Les notifications sont bloquées pour Vigie dans ce navigateur\u202F: autorisez-les dans ses réglages, puis revenez ici.',
  off: 'Pas encore activé sur cet appareil. Chaque alerte s’y affichera avec «\u202FPrendre en compte\u202F».',
  on: 'Les alertes arrivent sur cet appareil.',
};

/** « Mon compte »: this browser receives the alerts told to this person, as system notifications. */
export function PushPanel() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    currentPushState()
      .then((known) => live && setState(known))
      .catch(() => live && setState('off'));
    return () => {
      live = false;
    };
  }, []);

  const [turningOn, setTurningOn] = useState(false);

  const change = (action: () => Promise<PushState>, on: boolean) => {
    setProblem(null);
    setBusy(true);
    setTurningOn(on);
    action()
      .then(setState)
      .catch((error: unknown) =>
        setProblem(
          on
            ? pushErrorMessage(error)
            : pushErrorMessage(
                error,
                'Les notifications n’ont pas pu être arrêtées sur cet appareil\u202F: rechargez la page, puis réessayez.',
              ),
        ),
      )
      .finally(() => setBusy(false));
  };

  return (
    <div className="grid gap-3" data-testid="push-panel">
      <p className="text-sm text-slate-300" aria-live="polite">
        {/* While the browser asks and subscribes (seconds at times), the person knows what is going on. */}
        {busy && turningOn
          ? 'Activation en cours\u202F: si le navigateur vous demande d’autoriser les notifications, choisissez «\u202FAutoriser\u202F».'
          : state
            ? STATE_TEXT[state]
            : 'Vérification de ce navigateur…'}
      </p>
      {(state === 'off' || state === 'on') && (
        <div>
          {state === 'off' ? (
            <Button
              variant="primary"
              busy={busy}
              icon={<BellRing className="size-4" aria-hidden="true" />}
              onClick={() => change(turnPushOn, true)}
            >
              Recevoir les alertes sur cet appareil
            </Button>
          ) : (
            <Button busy={busy} icon={<BellOff className="size-4" aria-hidden="true" />} onClick={() => change(turnPushOff, false)}>
              Ne plus recevoir les alertes sur cet appareil
            </Button>
          )}
        </div>
      )}
      <FormStatus error={problem} />
    </div>
  );
}
