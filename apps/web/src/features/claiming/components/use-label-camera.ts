import type { LoraWanQr } from '@vigie/contract';
import { parseClaimUri } from '@vigie/contract/claim-label';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createQrReader } from '../decode-qr';

/** What a Vigie label says: the device's serial and its claim code. */
export type Label = { serial: string; claimCode: string };

export type CameraState = { phase: 'off' } | { phase: 'starting' } | { phase: 'scanning' } | { phase: 'failed'; message: string };

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

/**
 * The camera that reads a label's QR code: opened on demand, a frame read every 200 ms until a
 * Vigie label (handed to `onLabel`) or, when `readLorawan` reads it, a LoRaWAN sensor's label
 * (kept as `scannedLorawan`) shows; closed then, or when the component goes. `onLabel` and
 * `readLorawan` are to be stable (`useCallback`): a new one restarts the reading.
 */
export function useLabelCamera({
  onLabel,
  readLorawan,
}: {
  onLabel: (label: Label) => void;
  readLorawan: (text: string) => LoraWanQr | null;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [camera, setCamera] = useState<CameraState>({ phase: 'off' });
  const [notLabel, setNotLabel] = useState(false);
  // A LoRaWAN label (LoRa Alliance TR005) read by the camera; typed, it is read from the serial's field.
  const [scannedLorawan, setScannedLorawan] = useState<LoraWanQr | null>(null);

  const stopCamera = useCallback(() => {
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  }, []);

  useEffect(() => stopCamera, [stopCamera]);

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
          onLabel(label);
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
  }, [camera.phase, onLabel, readLorawan, stopCamera]);

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

  const cameraOn = camera.phase === 'starting' || camera.phase === 'scanning';

  return { videoRef, camera, cameraOn, notLabel, scannedLorawan, startCamera, onCancelCamera };
}

/** The label camera's state and controls, for the section that shows them. */
export type LabelCamera = ReturnType<typeof useLabelCamera>;
