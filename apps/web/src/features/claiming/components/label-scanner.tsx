import type { LoraWanQr } from '@vigie/contract';
import { parseLoraWanQr } from '@vigie/contract/values';
import { parseClaimUri } from '@vigie/contract/claim-label';
import { Camera, CameraOff, Keyboard } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import type { LabelRefusal } from '../api/claim-device';
import { createQrReader } from '../decode-qr';

export type Label = { serial: string; claimCode: string };

type CameraState = { phase: 'off' } | { phase: 'starting' } | { phase: 'scanning' } | { phase: 'failed'; message: string };

const SCAN_INTERVAL_MS = 200;

/** The French reason a camera could not open, with what to do instead. */
export function cameraErrorMessage(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Accès à la caméra refusé. Autorisez la caméra pour ce site dans les réglages du navigateur, ou saisissez le numéro de série et le code ci-dessous.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'Aucune caméra disponible sur cet appareil\u202F: saisissez le numéro de série et le code ci-dessous.';
    case 'NotReadableError':
      return 'La caméra est occupée par une autre application\u202F: fermez-la, puis réessayez.';
    default:
      return 'La caméra n’a pas pu s’ouvrir\u202F: saisissez le numéro de série et le code ci-dessous.';
  }
}

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
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [camera, setCamera] = useState<CameraState>({ phase: 'off' });
  const [notLabel, setNotLabel] = useState(false);
  const [serial, setSerial] = useState(initialSerial);
  const [code, setCode] = useState('');
  const serialRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // A LoRaWAN label (LoRa Alliance TR005) read by the camera; typed, it is read from the serial's field.
  const [scannedLorawan, setScannedLorawan] = useState<LoraWanQr | null>(null);
  const lorawanRef = useRef<HTMLDivElement>(null);
  const ids = useId();
  const readLorawan = useCallback((text: string) => (lorawanNotice ? parseLoraWanQr(text) : null), [lorawanNotice]);
  const typedLorawan = readLorawan(serial);
  const lorawan = typedLorawan ?? scannedLorawan;

  const stopCamera = useCallback(() => {
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  }, []);

  useEffect(() => stopCamera, [stopCamera]);

  // A label refused: its field takes the focus, to be corrected there.
  useEffect(() => {
    if (refusal?.field === 'serial') serialRef.current?.focus();
    else if (refusal?.field === 'code') codeRef.current?.focus();
  }, [refusal]);

  // Back with the serial kept: the code is what is left to type.
  useEffect(() => {
    if (initialSerial) codeRef.current?.focus();
  }, [initialSerial]);

  // While the camera runs, read a frame every 200 ms until a Vigie label shows.
  useEffect(() => {
    if (camera.phase !== 'scanning') return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const canvas = document.createElement('canvas');
    void createQrReader().then((read) => {
      const tick = async () => {
        const video = videoRef.current;
        if (stopped || !video) return;
        const text = await read(video, canvas).catch(() => null);
        if (stopped) return;
        const label = text ? parseClaimUri(text) : null;
        if (label) {
          stopCamera();
          setCamera({ phase: 'off' });
          // In the fields, to be corrected there should the label be refused.
          setSerial(label.serial);
          setCode(label.claimCode);
          setFormError(null);
          onIdentified(label);
          return;
        }
        const sensor = text ? readLorawan(text) : null;
        if (sensor) {
          stopCamera();
          setCamera({ phase: 'off' });
          setScannedLorawan(sensor);
          return;
        }
        if (text) setNotLabel(true);
        timer = setTimeout(() => void tick(), SCAN_INTERVAL_MS);
      };
      void tick();
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [camera.phase, onIdentified, readLorawan, stopCamera]);

  const startCamera = async () => {
    setNotLabel(false);
    setScannedLorawan(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setCamera({
        phase: 'failed',
        message:
          'Ce navigateur n’ouvre pas la caméra ici (une adresse en HTTPS est nécessaire)\u202F: saisissez le numéro de série et le code ci-dessous.',
      });
      return;
    }
    setCamera({ phase: 'starting' });
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      streamRef.current = stream;
      const video = videoRef.current;
      if (video) {
        video.srcObject = stream;
        await video.play().catch(() => undefined);
      }
      setCamera({ phase: 'scanning' });
    } catch (error) {
      stopCamera();
      setCamera({ phase: 'failed', message: cameraErrorMessage(error) });
    }
  };

  const onCancelCamera = () => {
    stopCamera();
    setCamera({ phase: 'off' });
  };

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

  const cameraOn = camera.phase === 'starting' || camera.phase === 'scanning';
  const serialError = refusal?.field === 'serial' ? refusal.message : null;
  const codeError = refusal?.field === 'code' ? refusal.message : null;
  const serialDescription = [lorawanNotice ? `${ids}-serial-hint` : null, serialError ? `${ids}-serial-error` : null]
    .filter(Boolean)
    .join(' ');

  return (
    <div className="space-y-6">
      <section aria-labelledby={`${ids}-scan`} className="space-y-3">
        <h2 id={`${ids}-scan`} className="text-lg font-semibold text-white">
          1. Scannez l’étiquette de l’appareil
        </h2>
        <p className="text-sm text-slate-300">Le code QR est imprimé sur l’appareil ou sur sa boîte.</p>
        <div className={cameraOn ? 'block' : 'hidden'}>
          <div className="relative overflow-hidden rounded-2xl border border-cyan-300/30 bg-black">
            <video ref={videoRef} muted playsInline aria-label="Aperçu de la caméra" className="aspect-[4/3] w-full object-cover" />
            <div aria-hidden="true" className="pointer-events-none absolute inset-[18%] rounded-xl border-2 border-cyan-300/80" />
          </div>
          <p role="status" className="mt-2 text-sm text-slate-200">
            {camera.phase === 'starting'
              ? 'Ouverture de la caméra…'
              : notLabel
                ? lorawanNotice
                  ? 'Ce code QR n’est ni une étiquette Vigie ni celle d’un capteur LoRaWAN : visez celui de l’appareil.'
                  : 'Ce code QR n’est pas une étiquette Vigie\u202F: visez celui de l’appareil.'
                : 'Visez le code QR de l’étiquette…'}
          </p>
          <Button variant="secondary" className="mt-3" onClick={onCancelCamera}>
            <CameraOff className="size-4" aria-hidden="true" />
            Fermer la caméra
          </Button>
        </div>
        {!cameraOn ? (
          <Button variant="primary" onClick={() => void startCamera()} className="w-full sm:w-auto">
            <Camera className="size-5" aria-hidden="true" />
            Scanner l’étiquette
          </Button>
        ) : null}
        <FormStatus error={camera.phase === 'failed' ? camera.message : null} />
      </section>

      <div role="status" ref={lorawanRef}>
        {lorawan && lorawanNotice?.(lorawan)}
      </div>

      <form onSubmit={onSubmit} noValidate aria-labelledby={`${ids}-manual`} className="space-y-3 border-t border-white/10 pt-5">
        <h2 id={`${ids}-manual`} className="flex items-center gap-2 text-base font-semibold text-white">
          <Keyboard className="size-4 text-slate-300" aria-hidden="true" />
          Ou saisissez l’étiquette
        </h2>
        <label className="block text-sm font-medium text-slate-200">
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
        </label>
        {lorawanNotice && (
          <p id={`${ids}-serial-hint`} className="-mt-1 text-xs text-slate-400">
            Un capteur LoRaWAN{'\u202F'}: saisissez ici le texte de son code QR (LW:D0:…).
          </p>
        )}
        {serialError && <FormStatus id={`${ids}-serial-error`} error={serialError} className="-mt-1" />}
        <label className="block text-sm font-medium text-slate-200">
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
        </label>
        <FormStatus id={`${ids}-code-error`} error={codeError} className="-mt-1" />
        <FormStatus error={formError ?? (refusal && !refusal.field ? refusal.message : null)} />
        <Button type="submit" variant="secondary" busy={checking}>
          {checking ? 'Vérification…' : 'Continuer'}
        </Button>
      </form>
    </div>
  );
}
