import { KeyRound, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '@/components/ui/dialog';
import { CopyButton } from '@/components/copy-button';
import { protocolQueryOptions } from '@/lib/device-protocol';
import { buildInstallSnippet } from '@/lib/install-snippet';
import { FormStatus } from '@/components/ui/form-status';
import { errorMessage } from '@/lib/errors';
import { useRotateDeviceToken } from '../api/rotate-device-token';
import type { DeviceKind } from '../device-kinds';
import { secondaryButtonClass } from '@/components/ui/section';

/** A new device token, after a warning; shown once with the commands filled in. */
export function TokenRotation({ kind, deviceId }: { kind: DeviceKind; deviceId: string }) {
  const rotate = useRotateDeviceToken({ kind, id: deviceId });
  const protocol = useQuery(protocolQueryOptions());
  const [confirming, setConfirming] = useState(false);
  const [issued, setIssued] = useState<string | null>(null);

  const onConfirm = () => {
    rotate.mutate(undefined, {
      onSuccess: (accessToken) => {
        setIssued(accessToken);
        setConfirming(false);
      },
      onError: () => setConfirming(false),
    });
  };

  const snippet =
    issued &&
    buildInstallSnippet({
      origin: window.location.origin,
      hostname: window.location.hostname,
      mqttPort: protocol.data?.mqttPort ?? null,
      deviceId,
      token: issued,
      kind,
    });

  return (
    <div className="space-y-4">
      <button type="button" onClick={() => setConfirming(true)} className={secondaryButtonClass}>
        <KeyRound className="size-4" aria-hidden="true" />
        Générer un nouveau jeton
      </button>
      {rotate.isError && <FormStatus error={errorMessage(rotate.error, 'Unexpected error')} />}
      {issued && snippet && (
        <div className="space-y-3 rounded-xl border border-emerald-300/30 bg-emerald-400/5 p-4">
          <p role="status" className="flex items-start gap-2 text-sm text-emerald-100">
            <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Copiez ce jeton maintenant&#8239;: il ne sera plus jamais affiché.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code
              data-testid="device-token"
              className="min-w-0 flex-1 basis-full rounded-lg bg-slate-950/80 px-3 py-2 font-mono text-xs [overflow-wrap:anywhere] text-emerald-100 sm:basis-auto"
            >
              {issued}
            </code>
            <CopyButton text={issued} label="Copier le jeton" />
          </div>
          <div className="flex items-center justify-between gap-2">
            <p className="text-sm font-medium text-slate-200">Réglages de l’appareil</p>
            <CopyButton text={snippet} label="Copier les commandes" />
          </div>
          <pre
            tabIndex={0}
            aria-label="Commandes de l’appareil"
            className="max-h-72 overflow-auto rounded-lg bg-slate-950/80 p-3 font-mono text-xs leading-relaxed text-slate-200"
          >
            {snippet}
          </pre>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={'Générer un nouveau jeton\u202F?'}
        confirmLabel={rotate.isPending ? 'Génération…' : 'Générer'}
        busy={rotate.isPending}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(false)}
      >
        Le jeton actuel cessera aussitôt de fonctionner&#8239;: l’appareil devra être reconfiguré avec le nouveau.
      </ConfirmDialog>
    </div>
  );
}
