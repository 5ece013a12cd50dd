import type { Codec } from '@vigie/contract';
import { Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { useDeleteCodec } from '../api/lorawan-mutations';
import { codecMeasuresText, isPastedCodec } from '../lorawan-format';
import { PastedCodecForm } from './pasted-codec-form';

const NNBSP = '\u202F';

/**
 * « Décodeurs collés »: the decoder a maker publishes (LoRa Alliance TS013 `decodeUplink(input)`, ChirpStack v3 `Decode`, TTN v2 `Decoder`)
 * pasted, tried on a sample frame in the server's sandbox, saved for the organization, and then
 * offered with the built-in codecs when a device is adopted.
 */
export function PastedCodecs({ codecs }: { codecs: Codec[] }) {
  const pasted = codecs.filter(isPastedCodec);
  return (
    <div className="space-y-6">
      <PastedCodecForm />
      <PastedCodecList codecs={pasted} />
    </div>
  );
}
/** The organization's pasted codecs, what they read, and their deletion (refused while devices use them). */
function PastedCodecList({ codecs }: { codecs: Codec[] }) {
  const ids = useId();
  const remove = useDeleteCodec();
  const [confirming, setConfirming] = useState<Codec | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onConfirm = () => {
    if (!confirming) return;
    const codec = confirming;
    setError(null);
    remove.mutate(codec.id, {
      onSuccess: () => {
        setConfirming(null);
        showToast({ message: `Décodeur «${NNBSP}${codec.model}${NNBSP}» supprimé.` });
      },
      onError: (failure) => {
        setConfirming(null);
        setError(errorMessage(failure, 'Le décodeur n’a pas été supprimé.'));
      },
    });
  };

  return (
    <div className="space-y-3 border-t border-white/10 pt-5">
      <h3 id={`${ids}-title`} className="text-base font-semibold text-white">
        Décodeurs de l’organisation
      </h3>
      {error && <Alert onDismiss={() => setError(null)}>{error}</Alert>}
      {codecs.length === 0 ? (
        <p className="text-sm text-slate-300">Aucun décodeur collé pour l’instant.</p>
      ) : (
        <ul className="divide-y divide-white/10" aria-labelledby={`${ids}-title`}>
          {codecs.map((codec) => (
            <li
              key={codec.id}
              data-testid="pasted-codec"
              className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0"
            >
              <div className="min-w-0">
                <p className="font-medium [overflow-wrap:anywhere] text-white">{codec.model}</p>
                <p className="text-sm text-slate-300">
                  {codec.measures.length > 0 ? `Mesures${NNBSP}: ${codecMeasuresText(codec)}` : 'Aucune mesure connue'}
                </p>
              </div>
              <Button
                variant="danger"
                size="sm"
                onClick={() => setConfirming(codec)}
                aria-label={`Supprimer le décodeur ${codec.model}`}
                icon={<Trash2 className="size-4" aria-hidden="true" />}
              >
                Supprimer
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`Supprimer le décodeur «${NNBSP}${confirming?.model ?? ''}${NNBSP}»${NNBSP}?`}
        confirmLabel={remove.isPending ? 'Suppression…' : 'Supprimer'}
        busy={remove.isPending}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(null)}
      >
        Il ne sera plus proposé à l’adoption d’un capteur. Un décodeur que des appareils utilisent encore ne peut pas être supprimé.
      </ConfirmDialog>
    </div>
  );
}
