import type { QueryKey } from '@tanstack/react-query';
import { ClipboardCheck } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { FollowUpFields, hint, ReferenceFields } from './calibration-fields';
import { NNBSP, useCalibrationForm } from './use-calibration-form';

/**
 * « Noter une vérification » (admins and managers): the sensor compared with a reference
 * instrument, the offset measured, the certificate and when the next one is due.
 */
export function CalibrationForm({ sensorId, related }: { sensorId: string; related?: readonly QueryKey[] }) {
  const id = useId();
  const titleId = `${id}-title`;
  const statusId = `${id}-status`;
  const form = useCalibrationForm(sensorId, related, statusId);

  return (
    <form
      onSubmit={(event) => void form.onSubmit(event)}
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

      <ReferenceFields id={id} form={form} />

      <FollowUpFields id={id} form={form} />

      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          variant="primary"
          busy={form.busy}
          icon={<ClipboardCheck className="size-4" aria-hidden="true" />}
          className="w-full sm:w-auto"
        >
          Enregistrer la vérification
        </Button>
        <FormStatus id={statusId} error={form.error?.message} success={form.done} className="min-w-0 flex-1 basis-48" />
      </div>
    </form>
  );
}
