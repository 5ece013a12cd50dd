import { Eye, EyeOff, KeyRound, LoaderCircle, RefreshCw, ScanLine, Terminal } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/ui/dialog';
import { CopyButton } from '@/components/copy-button';
import { Alert } from '@/components/ui/alert';
import { FormStatus } from '@/components/ui/form-status';
import { errorMessage } from '@/lib/errors';
import { usePermissions } from '@/lib/permissions';
import { useInstallationKey } from '../api/get-installation-key';
import { useProtocol } from '@/lib/device-protocol';
import { useRegenerateInstallationKey } from '../api/regenerate-installation-key';
import { buildInstallSnippet } from '@/lib/install-snippet';
import { QrCode } from '@/components/qr-code';
import { LOAD_ERROR } from '@/lib/fallback-text';

const card = 'rounded-2xl border border-white/10 bg-slate-900/60 p-5 shadow-lg shadow-black/20 backdrop-blur sm:p-6';

/** The installation key, how to use it (QR code, commands) and its regeneration. */
export function InstallationPanel() {
  const key = useInstallationKey();
  const protocol = useProtocol();
  const regenerate = useRegenerateInstallationKey();
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // Only admins and managers replace the key.
  const { manage } = usePermissions();
  const origin = window.location.origin;

  const onRegenerate = () => {
    setNotice(null);
    regenerate.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        setRevealed(true);
        setNotice('Nouvelle clé créée. Les appareils déjà installés continuent d’envoyer leurs mesures.');
      },
      onError: () => setConfirming(false),
    });
  };

  if (key.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-slate-300">
        <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
        Chargement de la clé d’installation…
      </p>
    );
  }
  if (key.isError) {
    return <Alert>{errorMessage(key.error, LOAD_ERROR)}</Alert>;
  }

  const installationKey = key.data;
  const masked = `${installationKey.slice(0, 4)}${'•'.repeat(Math.max(8, installationKey.length - 8))}${installationKey.slice(-4)}`;
  const snippetFor = (keyText: string) =>
    buildInstallSnippet({
      origin,
      hostname: window.location.hostname,
      mqttPort: protocol.data?.mqttPort ?? null,
      installationKey: keyText,
    });
  // The copied commands carry the key; the ones on screen show it only when it is revealed.
  const snippet = snippetFor(installationKey);
  const shownSnippet = revealed ? snippet : snippetFor(masked);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="space-y-6">
        <section aria-labelledby="key-title" className={card}>
          <h2 id="key-title" className="flex items-center gap-2 text-lg font-semibold text-white">
            <KeyRound className="size-5 text-cyan-300" aria-hidden="true" />
            Clé d’installation
          </h2>
          <p className="mt-2 text-sm text-slate-300">Elle permet à un appareil de rejoindre votre organisation. Gardez-la pour vous.</p>
          <div className="mt-4 flex flex-wrap items-center gap-2">
            <code
              data-testid="installation-key"
              aria-label={revealed ? 'Clé d’installation' : 'Clé d’installation masquée'}
              className="min-w-0 flex-1 basis-full rounded-xl border border-white/10 bg-slate-950/70 px-4 py-3 font-mono text-sm [overflow-wrap:anywhere] text-cyan-100 sm:basis-auto"
            >
              {revealed ? installationKey : masked}
            </code>
            <button
              type="button"
              onClick={() => setRevealed((value) => !value)}
              aria-pressed={revealed}
              className="inline-flex items-center gap-1.5 rounded-lg border border-white/10 px-3 py-2 text-sm font-medium text-slate-200 hover:border-white/20 hover:bg-white/5"
            >
              {revealed ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
              {revealed ? 'Masquer la clé' : 'Afficher la clé'}
            </button>
            <CopyButton text={installationKey} label="Copier la clé" />
          </div>
          {manage && (
            <>
              <div className="mt-5 flex flex-wrap items-center gap-3 border-t border-white/5 pt-4">
                <button
                  type="button"
                  onClick={() => setConfirming(true)}
                  className="inline-flex items-center gap-2 rounded-lg border border-amber-300/30 px-3 py-2 text-sm font-medium text-amber-100 hover:border-amber-300/60 hover:bg-amber-400/10"
                >
                  <RefreshCw className="size-4" aria-hidden="true" />
                  Régénérer la clé
                </button>
                <p className="text-xs text-slate-400">L’ancienne clé n’installera plus de nouvel appareil.</p>
              </div>
              <FormStatus
                className="mt-3"
                error={regenerate.isError && errorMessage(regenerate.error, 'Unexpected error')}
                success={notice}
              />
            </>
          )}
        </section>

        <section aria-labelledby="snippet-title" className={card}>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="snippet-title" className="flex items-center gap-2 text-lg font-semibold text-white">
              <Terminal className="size-5 text-violet-300" aria-hidden="true" />
              Pour l’installateur
            </h2>
            <CopyButton text={snippet} label="Copier les commandes" />
          </div>
          <p className="mt-2 text-sm text-slate-300">Installation, envoi d’une mesure en HTTP et réglages MQTT de ce serveur.</p>
          <pre
            data-testid="install-snippet"
            tabIndex={0}
            aria-label="Commandes d’installation"
            className="mt-4 max-h-96 overflow-auto rounded-xl border border-white/10 bg-slate-950/80 p-4 font-mono text-xs leading-relaxed text-slate-200"
          >
            {shownSnippet}
          </pre>
        </section>
      </div>

      <section aria-labelledby="qr-title" className={`${card} flex flex-col items-center text-center lg:self-start`}>
        <h2 id="qr-title" className="flex items-center gap-2 text-lg font-semibold text-white">
          <ScanLine className="size-5 text-cyan-300" aria-hidden="true" />
          Sur votre téléphone
        </h2>
        <div className="mt-4 w-full max-w-60">
          <QrCode value={`${origin}/dashboard/installer`} label="Code QR de l’installation guidée sur votre téléphone" />
        </div>
        <p className="mt-4 text-sm text-slate-300">
          Scannez ce code avec l’appareil photo de votre téléphone&#8239;: il ouvre l’installation guidée, où vous scannez l’étiquette de
          chaque appareil livré par Vigie.
        </p>
        <Link
          to="/dashboard/installer"
          className="mt-3 text-sm font-semibold text-cyan-200 underline underline-offset-4 hover:text-cyan-100"
        >
          Ouvrir l’installation guidée ici
        </Link>
      </section>

      <ConfirmDialog
        open={confirming}
        title={'Régénérer la clé d’installation\u202F?'}
        confirmLabel={regenerate.isPending ? 'Régénération…' : 'Régénérer'}
        busy={regenerate.isPending}
        onConfirm={onRegenerate}
        onCancel={() => setConfirming(false)}
      >
        L’ancienne clé n’installera plus aucun nouvel appareil. Les appareils déjà installés continuent de fonctionner.
      </ConfirmDialog>
    </div>
  );
}
