import type { LoraWanQr } from '@vigie/contract';
import { parseLoraWanQr } from '@vigie/contract/values';
import { Keyboard } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { FieldLabel } from '@/components/ui/field-label';
import { FormStatus } from '@/components/ui/form-status';
import type { LabelRefusal } from '../api/claim-device';
import { CameraScanSection } from './camera-scan-section';
import { useLabelCamera, type Label } from './use-label-camera';

export { cameraErrorMessage, type Label } from './use-label-camera';

const inputClass =
  'mt-1 block w-full rounded-xl border border-white/15 bg-slate-950/70 px-3 py-2.5 text-base text-white placeholder:text-slate-500 focus:border-cyan-300 focus:outline-none focus:ring-2 focus:ring-cyan-300/40';

/**
 * Step 1 of the installation: the label's QR code read by the camera, or its serial and code typed.
 * The label is handed to `onIdentified` (which checks it with the server); a refusal comes back as
 * `refusal`, shown on the field it concerns, which takes the focus.
 */
export function LabelScanner({
  onIdentified,
  lorawanNotice,
  checking = false,
  refusal = null,
  initialSerial = '',
}: {
  onIdentified: (label: Label) => void;
  /** What to say of a LoRaWAN label (LoRa Alliance TR005), with a link to add the sensor; without it, such a label is not read. */
  lorawanNotice?: (sensor: LoraWanQr) => ReactNode;
  /** While the label is being checked. */
  checking?: boolean;
  /** Why the label was refused; a new object for each refusal. */
  refusal?: LabelRefusal | null;
  /** The serial to start from (back from step 2 when only the code was wrong): the code is typed again. */
  initialSerial?: string;
}) {
  const [serial, setSerial] = useState(initialSerial);
  const [code, setCode] = useState('');
  const serialRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const lorawanRef = useRef<HTMLDivElement>(null);
  const ids = useId();
  const readLorawan = useCallback((text: string) => (lorawanNotice ? parseLoraWanQr(text) : null), [lorawanNotice]);
  const onScanned = useCallback(
    (label: Label) => {
      // In the fields, to be corrected there should the label be refused.
      setSerial(label.serial);
      setCode(label.claimCode);
      setFormError(null);
      onIdentified(label);
    },
    [onIdentified],
  );
  const camera = useLabelCamera({ onLabel: onScanned, readLorawan });
  const typedLorawan = readLorawan(serial);
  const lorawan = typedLorawan ?? camera.scannedLorawan;

  // A label refused: its field takes the focus, to be corrected there.
  useEffect(() => {
    if (refusal?.field === 'serial') serialRef.current?.focus();
    else if (refusal?.field === 'code') codeRef.current?.focus();
  }, [refusal]);

  // Back with the serial kept: the code is what is left to type.
  useEffect(() => {
    if (initialSerial) codeRef.current?.focus();
  }, [initialSerial]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (typedLorawan) {
      setFormError(null);
      // Its link, to go on with the keyboard.
      lorawanRef.current?.querySelector<HTMLElement>('a, button')?.focus();
      return;
    }
    const label = { serial: serial.trim(), claimCode: code.trim() };
    if (!label.serial || !label.claimCode) {
      setFormError('Saisissez le numéro de série et le code imprimés sur l’étiquette.');
      return;
    }
    setFormError(null);
    onIdentified(label);
  };

  const serialError = refusal?.field === 'serial' ? refusal.message : null;
  const codeError = refusal?.field === 'code' ? refusal.message : null;
  const serialDescription = [lorawanNotice ? `${ids}-serial-hint` : null, serialError ? `${ids}-serial-error` : null]
    .filter(Boolean)
    .join(' ');

  return (
    <div className="space-y-6">
      <CameraScanSection id={`${ids}-scan`} camera={camera} lorawan={Boolean(lorawanNotice)} />

      <div role="status" ref={lorawanRef}>
        {lorawan && lorawanNotice?.(lorawan)}
      </div>

      <form onSubmit={onSubmit} noValidate aria-labelledby={`${ids}-manual`} className="space-y-3 border-t border-white/10 pt-5">
        <h2 id={`${ids}-manual`} className="flex items-center gap-2 text-base font-semibold text-white">
          <Keyboard className="size-4 text-slate-300" aria-hidden="true" />
          Ou saisissez l’étiquette
        </h2>
        <FieldLabel>
          Numéro de série
          <input
            ref={serialRef}
            value={serial}
            onChange={(event) => setSerial(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="VIG-123456"
            aria-invalid={serialError ? true : undefined}
            aria-describedby={serialDescription || undefined}
            className={inputClass}
          />
        </FieldLabel>
        {lorawanNotice && (
          <p id={`${ids}-serial-hint`} className="-mt-1 text-xs text-slate-400">
            Un capteur LoRaWAN{'\u202F'}: saisissez ici le texte de son code QR (LW:D0:…).
          </p>
        )}
        {serialError && <FormStatus id={`${ids}-serial-error`} error={serialError} className="-mt-1" />}
        <FieldLabel>
          Code de l’étiquette
          <input
            ref={codeRef}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="ABCD-EFGH-JKLM"
            aria-invalid={codeError ? true : undefined}
            aria-describedby={`${ids}-code-error`}
            className={inputClass}
          />
        </FieldLabel>
        <FormStatus id={`${ids}-code-error`} error={codeError} className="-mt-1" />
        <FormStatus error={formError ?? (refusal && !refusal.field ? refusal.message : null)} />
        <Button type="submit" variant="secondary" busy={checking}>
          {checking ? 'Vérification…' : 'Continuer'}
        </Button>
      </form>
    </div>
  );
}
