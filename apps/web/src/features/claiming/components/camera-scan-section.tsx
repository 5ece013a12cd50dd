import { Camera, CameraOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import type { LabelCamera } from './use-label-camera';

/**
 * « Scannez l’étiquette de l’appareil »: the camera's preview with what it reads so far, the
 * buttons to open and close it, and why it could not open.
 */
export function CameraScanSection({ id, camera: scan, lorawan }: { id: string; camera: LabelCamera; lorawan: boolean }) {
  const { videoRef, camera, cameraOn, notLabel, startCamera, onCancelCamera } = scan;
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold text-white">
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
              ? lorawan
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
  );
}
