import type { Calibration } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import type { QueryKey } from '@tanstack/react-query';
import { AlertTriangle, CalendarClock, FileDown, LoaderCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { DetailSection } from '@/components/ui/section';
import { useNow } from '@/hooks/use-now';
import { formatClock } from '@/lib/clock-format';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { useCalibrations, useDownloadCertificate } from '../api/calibration-queries';
import { dueState, formatOffset, formatShortDate, formatSize, latestCalibration } from '../calibration-format';
import { CalibrationForm } from './calibration-form';

const NNBSP = '\u202F';

/** The verification in force and when the next one is due, with a warning when it is late or near. */
function LatestSummary({ latest, timeZone, now }: { latest: Calibration; timeZone: string | undefined; now: number }) {
  const state = dueState(latest.nextDueAt, now);
  const due = latest.nextDueAt ? formatShortDate(latest.nextDueAt, timeZone) : null;
  return (
    <div data-testid="calibration-summary" className="space-y-2 rounded-xl border border-white/10 bg-slate-950/40 p-3 sm:p-4">
      <p className="font-semibold text-white">
        {`Dernière vérification${NNBSP}: `}
        <time dateTime={latest.verifiedAt}>{formatShortDate(latest.verifiedAt, timeZone)}</time>
        {` — écart ${formatOffset(latest.offset)} `}
        <span className="font-normal text-slate-300">{latest.offset === 0 ? '(aucune correction)' : '(corrigé)'}</span>
      </p>
      <p className="flex items-center gap-2 text-sm text-slate-300">
        <CalendarClock className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
        <span>
          {`Prochaine${NNBSP}: `}
          {latest.nextDueAt ? <time dateTime={latest.nextDueAt}>{due}</time> : 'non prévue'}
        </span>
      </p>
      {(state === 'overdue' || state === 'soon') && (
        <p
          data-testid="calibration-due"
          data-tone={state}
          className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm font-semibold ${
            state === 'overdue' ? 'border-red-400/50 bg-red-500/15 text-red-100' : 'border-amber-300/50 bg-amber-400/10 text-amber-100'
          }`}
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {state === 'overdue' ? `Vérification en retard depuis le ${due}.` : `Vérification à prévoir avant le ${due}.`}
        </p>
      )}
    </div>
  );
}

function CalibrationItem({
  calibration,
  timeZone,
  downloading,
  onDownload,
}: {
  calibration: Calibration;
  timeZone: string | undefined;
  downloading: boolean;
  onDownload: () => void;
}) {
  const at = Date.parse(calibration.verifiedAt);
  const { certificate } = calibration;
  return (
    <li data-testid="calibration-item" className="min-w-0 rounded-xl border border-white/10 bg-slate-950/40 p-3 sm:p-4">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <p className="text-sm text-slate-300">
          <time dateTime={calibration.verifiedAt}>
            {formatShortDate(at, timeZone)} à {formatClock(at, timeZone)}
          </time>
          {' · par '}
          {calibration.by.name}
        </p>
        <p data-testid="calibration-offset" className="text-lg font-bold text-white">
          <span className="sr-only">{`Écart${NNBSP}: `}</span>
          {formatOffset(calibration.offset)}
        </p>
      </div>
      <p className="mt-1 text-sm text-slate-100 [overflow-wrap:anywhere]">
        <span className="text-slate-400">{`Méthode${NNBSP}: `}</span>
        {calibration.method}
      </p>
      {calibration.note && (
        <p className="mt-1 whitespace-pre-line text-sm text-slate-300 [overflow-wrap:anywhere]">
          <span className="text-slate-400">{`Remarque${NNBSP}: `}</span>
          {calibration.note}
        </p>
      )}
      {calibration.amendedPeriod && (
        <p data-testid="calibration-amendment" className="mt-1 text-sm text-amber-200">
          {`Datée d’une période déjà signée${NNBSP}: non appliquée au rapport signé, dont les températures restent telles quelles${NNBSP}; appliquée à partir du ${formatShortDate(Date.parse(calibration.appliesFrom), timeZone)} à ${formatClock(Date.parse(calibration.appliesFrom), timeZone)}.`}
        </p>
      )}
      {certificate && (
        <Button
          size="sm"
          busy={downloading}
          onClick={onDownload}
          icon={<FileDown className="size-4" aria-hidden="true" />}
          aria-label={`Télécharger le certificat ${certificate.fileName}`}
          className="mt-2 max-w-full"
        >
          <span className="min-w-0 truncate">{certificate.fileName}</span>
          <span className="shrink-0 text-xs text-slate-400">({formatSize(certificate.size)})</span>
        </Button>
      )}
    </li>
  );
}

/**
 * « Vérifications du capteur »: the sensor's verification register. Each verification compares it
 * with a reference instrument; its offset corrects the temperatures from its date on. Everyone reads
 * the register and downloads the certificates; admins and managers note a new verification.
 */
export function CalibrationPanel({
  sensorId,
  timeZone,
  related,
}: {
  sensorId: string;
  /** The shop's zone, for the dates shown. */
  timeZone?: string | undefined;
  /** Queries a new verification changes (the sensor's readings and latest values, now corrected). */
  related?: readonly QueryKey[];
}) {
  const calibrations = useCalibrations(sensorId);
  const download = useDownloadCertificate();
  const can = useCan();
  const now = useNow(60_000);
  const ids = useId();
  const [pending, setPending] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [fileDone, setFileDone] = useState<string | null>(null);
  const mayRecord = can(endpoints.calibrations.create);
  const latest = calibrations.data ? latestCalibration(calibrations.data) : null;

  const save = (calibration: Calibration) => {
    if (!calibration.certificate) return;
    setFileError(null);
    setFileDone(null);
    setPending(calibration.id);
    download.mutate(
      { sensorId, calibrationId: calibration.id, certificate: calibration.certificate },
      {
        onSuccess: (name) => setFileDone(`Fichier téléchargé${NNBSP}: ${name}`),
        onError: (failure) => setFileError(errorMessage(failure, 'Le certificat n’a pas pu être téléchargé.')),
        onSettled: () => setPending(null),
      },
    );
  };

  return (
    <DetailSection
      id={`${ids}-title`}
      title="Vérifications du capteur"
      description={`Chaque vérification compare le capteur à un instrument de référence${NNBSP}; à partir de sa date, ses températures sont corrigées de l’écart mesuré.`}
    >
      <div className={`grid min-w-0 gap-6 ${mayRecord ? 'lg:grid-cols-2' : ''}`}>
        <div className="min-w-0 space-y-4">
          {calibrations.isError ? (
            <Alert
              size="compact"
              action={
                <Button size="sm" onClick={() => void calibrations.refetch()}>
                  Réessayer
                </Button>
              }
            >
              {errorMessage(calibrations.error, 'Les vérifications n’ont pas pu être lues.')}
            </Alert>
          ) : !calibrations.data ? (
            <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
              <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
              Chargement des vérifications…
            </p>
          ) : !latest ? (
            <p data-testid="calibration-empty" className="text-sm text-slate-300">
              Aucune vérification enregistrée.
            </p>
          ) : (
            <>
              <LatestSummary latest={latest} timeZone={timeZone} now={now} />
              <div className="space-y-2">
                <h3 id={`${ids}-history`} className="text-sm font-semibold text-slate-200">
                  Historique
                </h3>
                <ul aria-labelledby={`${ids}-history`} className="space-y-3">
                  {calibrations.data.map((calibration) => (
                    <CalibrationItem
                      key={calibration.id}
                      calibration={calibration}
                      timeZone={timeZone}
                      downloading={pending === calibration.id}
                      onDownload={() => save(calibration)}
                    />
                  ))}
                </ul>
                <FormStatus error={fileError} success={fileDone} />
              </div>
            </>
          )}
        </div>
        {mayRecord && <CalibrationForm sensorId={sensorId} {...(related ? { related } : {})} />}
      </div>
    </DetailSection>
  );
}
