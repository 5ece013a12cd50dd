import { MAX_CALIBRATION_OFFSET } from '@vigie/contract/values';
import { FieldLabel } from '@/components/ui/field-label';
import { inputClass } from '@/components/ui/section';
import { useNow } from '@/hooks/use-now';
import { aYearAfter, certificateProblem, formatSize, localInputValue } from '../calibration-format';
import { DAY_MS, MAX_AGE_DAYS, NNBSP, type CalibrationFormState } from './use-calibration-form';

const field = 'min-w-0 space-y-1.5';
export const hint = 'text-xs text-slate-400';
const legend = 'mb-3 text-sm font-semibold text-cyan-100';

type FieldsProps = { id: string; form: CalibrationFormState };

/** « Comparaison avec la référence »: when, the offset measured, and against what. */
export function ReferenceFields({ id, form }: FieldsProps) {
  const { draft, change, invalid, describedBy } = form;
  const now = useNow();
  return (
    <fieldset className="min-w-0">
      <legend className={legend}>Comparaison avec la référence</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className={field}>
          <FieldLabel htmlFor={`${id}-verified-at`}>Vérifié le</FieldLabel>
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
          <FieldLabel htmlFor={`${id}-offset`}>Écart mesuré (capteur − référence), en{NNBSP}°C</FieldLabel>
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
        <FieldLabel htmlFor={`${id}-method`}>Méthode et instrument de référence</FieldLabel>
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
  );
}

/** « Suivi »: when the next verification is due, the certificate, a note. */
export function FollowUpFields({ id, form }: FieldsProps) {
  const { draft, change, file, fileInput, chooseFile, invalid, describedBy } = form;
  return (
    <fieldset className="min-w-0">
      <legend className={legend}>Suivi</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className={field}>
          <FieldLabel htmlFor={`${id}-next-due`}>Prochaine vérification</FieldLabel>
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
          <FieldLabel htmlFor={`${id}-certificate`}>Certificat (facultatif)</FieldLabel>
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
        <FieldLabel htmlFor={`${id}-note`}>Remarque (facultatif)</FieldLabel>
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
  );
}
