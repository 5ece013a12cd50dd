import { Download } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { errorMessage } from '@/lib/errors';
import { useExportReadings } from '../api/export-readings';
import type { DeviceKind } from '../device-kinds';
import { inputClass, primaryButtonClass } from '@/components/ui/section';
import { FieldLabel } from '@/components/ui/field-label';

/** A date input's value (yyyy-mm-dd) for a local day. */
function dayValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local midnight of a yyyy-mm-dd day, plus `days`. */
function startOfDay(value: string, days = 0): Date {
  const [year, month, day] = value.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + days);
}

/** The period to export: from the start of the first day to the end of the last, in local time. */
export function exportPeriod(fromDay: string, toDay: string, now = new Date()): { from: string; to: string } | string {
  if (!fromDay || !toDay) return 'Choisissez les deux dates.';
  const from = startOfDay(fromDay);
  const end = startOfDay(toDay, 1);
  if (Number.isNaN(from.getTime()) || Number.isNaN(end.getTime())) return 'Date invalide.';
  if (from >= end) return 'La date de début doit précéder la date de fin.';
  const to = end > now ? now : end;
  return { from: from.toISOString(), to: to.toISOString() };
}

/** Every raw reading of a period as a CSV file for a spreadsheet (last 7 days by default). */
export function ReadingsExport({ kind, deviceId }: { kind: DeviceKind; deviceId: string }) {
  const [fromDay, setFromDay] = useState(() => dayValue(new Date(Date.now() - 7 * 24 * 3600_000)));
  const [toDay, setToDay] = useState(() => dayValue(new Date()));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const exporter = useExportReadings({ kind, id: deviceId });
  const fromId = useId();
  const toId = useId();
  const messageId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const period = exportPeriod(fromDay, toDay);
    if (typeof period === 'string') return setError(period);
    setError(null);
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Paris';
    exporter.mutate(
      { ...period, timeZone },
      {
        onSuccess: (name) => setDone(`Fichier téléchargé\u202F: ${name}`),
        onError: (failure) => setError(errorMessage(failure, 'Unexpected error')),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <FieldLabel htmlFor={fromId}>Du</FieldLabel>
          <input
            id={fromId}
            type="date"
            value={fromDay}
            max={toDay}
            onChange={(event) => setFromDay(event.target.value)}
            aria-describedby={messageId}
            className={`${inputClass} mt-1`}
          />
        </div>
        <div>
          <FieldLabel htmlFor={toId}>Au</FieldLabel>
          <input
            id={toId}
            type="date"
            value={toDay}
            min={fromDay}
            onChange={(event) => setToDay(event.target.value)}
            aria-describedby={messageId}
            className={`${inputClass} mt-1`}
          />
        </div>
        <button type="submit" disabled={exporter.isPending} aria-busy={exporter.isPending || undefined} className={primaryButtonClass}>
          <Download className="size-4" aria-hidden="true" />
          {exporter.isPending ? 'Préparation…' : 'Exporter en CSV'}
        </button>
      </div>
      <FormStatus id={messageId} error={error} success={done} />
    </form>
  );
}
