import type { CreateCalibrationRequest } from '@vigie/contract';
import { MAX_CALIBRATION_OFFSET } from '@vigie/contract/values';
import type { QueryKey } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/errors';
import { parseDecimal } from '@/lib/quantity-format';
import { useCreateCalibration } from '../api/calibration-queries';
import {
  aYearAfter,
  certificateFileName,
  certificateProblem,
  certificateType,
  dueInstant,
  localInputValue,
  readBase64,
} from '../calibration-format';

export const NNBSP = '\u202F';
/** The contract's bound on how far back a verification may be noted. */
export const MAX_AGE_DAYS = 31;
export const DAY_MS = 86_400_000;

type Field = 'verifiedAt' | 'method' | 'offset' | 'nextDue' | 'note' | 'certificate';
export type Draft = { verifiedAt: string; method: string; offset: string; nextDue: string; nextDueTouched: boolean; note: string };

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
 * The verification form's state and its sending: the draft, the certificate chosen (read as
 * base64 only when sent), the error and the field it is about, and what the fields' `aria-*`
 * say of it. Apart from the form so that its field groups read one state.
 */
export function useCalibrationForm(sensorId: string, related: readonly QueryKey[] | undefined, statusId: string) {
  const create = useCreateCalibration(sensorId, related ? { related } : {});
  const [draft, setDraft] = useState<Draft>(freshDraft);
  const [file, setFile] = useState<File | null>(null);
  // A new key empties the file input after a verification is recorded.
  const [fileInput, setFileInput] = useState(0);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<{ message: string; field: Field | null } | null>(null);
  const [done, setDone] = useState<string | null>(null);
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

  return {
    draft,
    change,
    file,
    fileInput,
    chooseFile,
    error,
    done,
    busy: create.isPending || reading,
    invalid,
    describedBy,
    onSubmit,
  };
}

/** What the verification form's field groups read and change. */
export type CalibrationFormState = ReturnType<typeof useCalibrationForm>;
