import type { CreateCalibrationRequest } from '@vigie/contract';
import { MAX_CALIBRATION_OFFSET } from '@vigie/contract/values';
import type { QueryKey } from '@tanstack/react-query';
import { ClipboardCheck } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { useNow } from '@/hooks/use-now';
import { errorMessage } from '@/lib/errors';
import { parseDecimal } from '@/lib/quantity-format';
import { useCreateCalibration } from '../api/calibration-queries';
import {
  aYearAfter,
  certificateFileName,
  certificateProblem,
  certificateType,
  dueInstant,
  formatSize,
  localInputValue,
  readBase64,
} from '../calibration-format';

const NNBSP = '\u202F';
/** The contract's bound on how far back a verification may be noted. */
const MAX_AGE_DAYS = 31;
const DAY_MS = 86_400_000;

const field = 'min-w-0 space-y-1.5';
const label = 'block text-sm font-medium text-slate-200';
const hint = 'text-xs text-slate-400';
const legend = 'mb-3 text-sm font-semibold text-cyan-100';

type Field = 'verifiedAt' | 'method' | 'offset' | 'nextDue' | 'note' | 'certificate';
type Draft = { verifiedAt: string; method: string; offset: string; nextDue: string; nextDueTouched: boolean; note: string };

/** Now, and a year later for the next one. */
function freshDraft(): Draft {
  const verifiedAt = localInputValue(Date.now());
  return { verifiedAt, method: '', offset: '', nextDue: aYearAfter(verifiedAt), nextDueTouched: false, note: '' };
}

type Failure = { error: string; field: Field };

/** What is sent, but the certificate's bytes (read afterwards), or the French reason it is not and the field at fault. */
function readCalibration(draft: Draft, file: File | null): Omit<CreateCalibrationRequest, 'certificate'> | Failure {
  const verifiedAt = draft.verifiedAt ? new Date(draft.verifiedAt).getTime() : Number.NaN;
  if (!Number.isFinite(verifiedAt)) return { error: 'Indiquez quand le capteur a été vérifié.', field: 'verifiedAt' };
  // A minute's grace: « maintenant », typed to the minute, is never in the future.
  if (verifiedAt > Date.now() + 60_000) return { error: 'La vérification ne peut pas être dans le futur.', field: 'verifiedAt' };
  if (verifiedAt < Date.now() - MAX_AGE_DAYS * DAY_MS)
    return { error: `Une vérification se note dans les ${MAX_AGE_DAYS}${NNBSP}jours qui la suivent.`, field: 'verifiedAt' };
  const method = draft.method.trim();
  if (!method) return { error: 'Indiquez la méthode et l’instrument de référence.', field: 'method' };
  const offset = parseDecimal(draft.offset);
  if (!Number.isFinite(offset))
    return { error: 'Indiquez l’écart mesuré, par exemple «\u202F0,4\u202F» ou «\u202F−0,3\u202F».', field: 'offset' };
  if (Math.abs(offset) > MAX_CALIBRATION_OFFSET)
    return {
      error: `L’écart mesuré doit être compris entre −${MAX_CALIBRATION_OFFSET} et +${MAX_CALIBRATION_OFFSET}${NNBSP}°C${NNBSP}; au-delà, le capteur se remplace.`,
      field: 'offset',
    };
  const calibration: Omit<CreateCalibrationRequest, 'certificate'> = {
    verifiedAt: new Date(verifiedAt).toISOString(),
    method,
    // One decimal, as the field steps; no binary noise such as 0.30000000000000004.
    offset: Math.round(offset * 100) / 100,
  };
  if (draft.nextDue) {
    const due = dueInstant(draft.nextDue, draft.verifiedAt);
    if (!Number.isFinite(due)) return { error: 'La date de la prochaine vérification est invalide.', field: 'nextDue' };
    if (due <= verifiedAt) return { error: 'La prochaine vérification doit suivre celle-ci.', field: 'nextDue' };
    calibration.nextDueAt = new Date(due).toISOString();
  }
  const note = draft.note.trim();
  if (note) calibration.note = note;
  if (file) {
    const problem = certificateProblem(file);
    if (problem) return { error: problem, field: 'certificate' };
  }
  return calibration;
}

/**
 * « Noter une vérification » (admins and managers): the sensor compared with a reference
 * instrument, the offset measured, the certificate and when the next one is due.
 */
export function CalibrationForm({ sensorId, related }: { sensorId: string; related?: readonly QueryKey[] }) {
  const create = useCreateCalibration(sensorId, related ? { related } : {});
  const now = useNow();
  const [draft, setDraft] = useState<Draft>(freshDraft);
  const [file, setFile] = useState<File | null>(null);
  // A new key empties the file input after a verification is recorded.
  const [fileInput, setFileInput] = useState(0);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<{ message: string; field: Field | null } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const id = useId();
  const titleId = `${id}-title`;
  const statusId = `${id}-status`;
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const invalid = (name: Field) => (error?.field === name ? true : undefined);
  const describedBy = (name: Field, ...hints: string[]) =>
    [...hints, error?.field === name ? statusId : null].filter(Boolean).join(' ') || undefined;

  const chooseFile = (chosen: File | null) => {
    setFile(chosen);
    setDone(null);
    const problem = chosen ? certificateProblem(chosen) : null;
    if (problem) setError({ message: problem, field: 'certificate' });
    else if (error?.field === 'certificate') setError(null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending || reading) return;
    setDone(null);
    const calibration = readCalibration(draft, file);
    if ('error' in calibration) return setError({ message: calibration.error, field: calibration.field });
    setError(null);
    let body: CreateCalibrationRequest = calibration;
    if (file) {
      setReading(true);
      try {
        const data = await readBase64(file);
        body = {
          ...calibration,
          certificate: { fileName: certificateFileName(file.name), contentType: certificateType(file) ?? 'application/pdf', data },
        };
      } catch (failure) {
        return setError({ message: errorMessage(failure, 'Le fichier n’a pas pu être lu.'), field: 'certificate' });
      } finally {
        setReading(false);
      }
    }
    create.mutate(body, {
      onSuccess: () => {
        setDraft(freshDraft());
        setFile(null);
        setFileInput((key) => key + 1);
        setDone('Vérification enregistrée.');
      },
      onError: (failure) => setError({ message: errorMessage(failure, 'La vérification n’a pas été enregistrée.'), field: null }),
    });
  };

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-labelledby={titleId}
      className="min-w-0 space-y-4 rounded-xl border border-white/10 bg-slate-950/40 p-3 sm:p-4"
    >
      <div>
        <h3 id={titleId} className="font-semibold text-white">
          Noter une vérification
        </h3>
        <p className={`${hint} mt-1`}>
          Une vérification ne se modifie ni ne se supprime{NNBSP}: une erreur se corrige en notant une nouvelle vérification.
        </p>
      </div>

      <fieldset className="min-w-0">
        <legend className={legend}>Comparaison avec la référence</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className={field}>
            <label htmlFor={`${id}-verified-at`} className={label}>
              Vérifié le
            </label>
            <input
              id={`${id}-verified-at`}
              type="datetime-local"
              value={draft.verifiedAt}
              min={localInputValue(now - MAX_AGE_DAYS * DAY_MS)}
              max={localInputValue(now)}
              onChange={(event) => {
                const verifiedAt = event.target.value;
                // The next one follows a year later, until it is chosen by hand.
                change(draft.nextDueTouched ? { verifiedAt } : { verifiedAt, nextDue: aYearAfter(verifiedAt) });
              }}
              aria-invalid={invalid('verifiedAt')}
              aria-describedby={describedBy('verifiedAt', `${id}-verified-at-hint`)}
              className={`${inputClass}`}
            />
            <p id={`${id}-verified-at-hint`} className={hint}>
              Maintenant par défaut{NNBSP}; jusqu’à {MAX_AGE_DAYS}
              {NNBSP}jours en arrière.
            </p>
          </div>
          <div className={field}>
            <label htmlFor={`${id}-offset`} className={label}>
              Écart mesuré (capteur − référence), en{NNBSP}°C
            </label>
            <input
              id={`${id}-offset`}
              type="number"
              step={0.1}
              min={-MAX_CALIBRATION_OFFSET}
              max={MAX_CALIBRATION_OFFSET}
              autoComplete="off"
              placeholder="0,4"
              value={draft.offset}
              onChange={(event) => change({ offset: event.target.value })}
              aria-invalid={invalid('offset')}
              aria-describedby={describedBy('offset', `${id}-offset-hint`)}
              className={inputClass}
            />
            <p id={`${id}-offset-hint`} className={hint}>
              +0,4 si le capteur lit 0,4{NNBSP}°C de plus que la référence. Ses températures sont corrigées dès la date de vérification
              {NNBSP}; l’export CSV garde les valeurs brutes.
            </p>
          </div>
        </div>
        <div className={`${field} mt-4`}>
          <label htmlFor={`${id}-method`} className={label}>
            Méthode et instrument de référence
          </label>
          <input
            id={`${id}-method`}
            value={draft.method}
            onChange={(event) => change({ method: event.target.value })}
            required
            aria-required="true"
            maxLength={200}
            placeholder="Bain thermostaté, sonde étalon n° 4521"
            aria-invalid={invalid('method')}
            aria-describedby={describedBy('method')}
            className={inputClass}
          />
        </div>
      </fieldset>

      <fieldset className="min-w-0">
        <legend className={legend}>Suivi</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className={field}>
            <label htmlFor={`${id}-next-due`} className={label}>
              Prochaine vérification
            </label>
            <input
              id={`${id}-next-due`}
              type="date"
              value={draft.nextDue}
              min={draft.verifiedAt.slice(0, 10) || undefined}
              onChange={(event) => change({ nextDue: event.target.value, nextDueTouched: true })}
              aria-invalid={invalid('nextDue')}
              aria-describedby={describedBy('nextDue', `${id}-next-due-hint`)}
              className={`${inputClass}`}
            />
            <p id={`${id}-next-due-hint`} className={hint}>
              Un an après par défaut{NNBSP}; à vider s’il n’y en a pas de prévue.
            </p>
          </div>
          <div className={field}>
            <label htmlFor={`${id}-certificate`} className={label}>
              Certificat (facultatif)
            </label>
            <input
              key={fileInput}
              id={`${id}-certificate`}
              type="file"
              accept="application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg"
              onChange={(event) => chooseFile(event.target.files?.[0] ?? null)}
              aria-invalid={invalid('certificate')}
              aria-describedby={describedBy('certificate', `${id}-certificate-hint`)}
              className="block w-full min-w-0 text-sm text-slate-300 file:mr-3 file:rounded-lg file:border file:border-cyan-300/30 file:bg-cyan-400/10 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-cyan-100 hover:file:bg-cyan-400/20 aria-[invalid=true]:text-red-200"
            />
            <p id={`${id}-certificate-hint`} className={`${hint} [overflow-wrap:anywhere]`}>
              {file && !certificateProblem(file) ? `${file.name} (${formatSize(file.size)})` : `PDF, PNG ou JPEG, 2${NNBSP}Mo au plus.`}
            </p>
          </div>
        </div>
        <div className={`${field} mt-4`}>
          <label htmlFor={`${id}-note`} className={label}>
            Remarque (facultatif)
          </label>
          <textarea
            id={`${id}-note`}
            value={draft.note}
            onChange={(event) => change({ note: event.target.value })}
            rows={2}
            maxLength={500}
            aria-invalid={invalid('note')}
            aria-describedby={describedBy('note')}
            className={inputClass}
          />
        </div>
      </fieldset>

      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          variant="primary"
          busy={create.isPending || reading}
          icon={<ClipboardCheck className="size-4" aria-hidden="true" />}
          className="w-full sm:w-auto"
        >
          Enregistrer la vérification
        </Button>
        <FormStatus id={statusId} error={error?.message} success={done} className="min-w-0 flex-1 basis-48" />
      </div>
    </form>
  );
}
