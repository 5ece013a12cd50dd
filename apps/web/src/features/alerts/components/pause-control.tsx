import { endpoints } from '@vigie/contract/routes';
import { PauseCircle, PlayCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { showToast } from '@/components/ui/toast';
import { formatClock } from '@/lib/clock-format';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { pauseOf, useEndPause, usePauses, useStartPause } from '../api/pause-queries';

const NNBSP = '\u202F';
const REASONS = ['Nettoyage', 'Réassort', 'Dégivrage prévu', 'Appareil hors service', 'Intervention technique'];
const DURATIONS: [number, string][] = [
  [30, '30 min'],
  [60, '1 h'],
  [120, '2 h'],
  [240, '4 h'],
  [480, '8 h'],
  [1440, '24 h'],
];

/** « 14 h 30 », or « demain 14 h 30 » when it is not today on the shop's clock. */
function untilLabel(until: string, timeZone: string | undefined): string {
  const at = Date.parse(until);
  const day = (ms: number) => new Intl.DateTimeFormat('fr-FR', { timeZone, day: 'numeric', month: 'numeric' }).format(ms);
  return `${day(at) === day(Date.now()) ? '' : 'demain '}${formatClock(at, timeZone)}`;
}

/**
 * « Mettre en pause » a sensor for planned work (cleaning, restocking, a planned defrost): its
 * alerts still open, their notifications wait until the pause ends. Shows the pause going on (the
 * sensor's own or its shop's) and, for those who may, ends it.
 */
export function PauseControl({ sensor, timeZone }: { sensor: { id: string; siteId: string | null }; timeZone?: string | undefined }) {
  const pauses = usePauses();
  const start = useStartPause();
  const end = useEndPause();
  const can = useCan();
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [minutes, setMinutes] = useState(60);
  const [error, setError] = useState<string | null>(null);
  const pause = pauseOf(pauses.data, sensor);
  const mayPause = can(endpoints.pauses.create);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    start.mutate(
      { sensorId: sensor.id, reason: reason.trim(), minutes },
      {
        onSuccess: (started) => {
          setOpen(false);
          setReason('');
          showToast({ message: `Capteur en pause jusqu’à ${untilLabel(started.until, timeZone)}.` });
        },
        onError: (failure) => setError(errorMessage(failure, 'La pause n’a pas commencé.')),
      },
    );
  };

  if (pause) {
    return (
      <section
        aria-labelledby={`${ids}-title`}
        data-testid="pause"
        className="flex flex-wrap items-center gap-3 rounded-2xl border border-amber-300/50 bg-amber-400/10 p-4"
      >
        <PauseCircle className="size-5 shrink-0 text-amber-200" aria-hidden="true" />
        <div className="min-w-[min(100%,16rem)] flex-1">
          <h2 id={`${ids}-title`} className="font-semibold text-white">
            {pause.sensorId ? 'Capteur en pause' : 'Magasin en pause'} jusqu’à {untilLabel(pause.until, timeZone)}
            {NNBSP}: {pause.reason}
          </h2>
          <p className="text-sm text-amber-100">Les alertes s’ouvrent toujours{NNBSP}; leurs notifications attendent la fin de la pause.</p>
        </div>
        {can(endpoints.pauses.end) && (
          <Button
            size="sm"
            busy={end.isPending}
            icon={<PlayCircle className="size-4" aria-hidden="true" />}
            onClick={() =>
              end.mutate(pause.id, {
                onSuccess: () => showToast({ message: 'Pause terminée : les notifications reprennent.' }),
                onError: (failure) => setError(errorMessage(failure, 'La pause n’a pas été terminée.')),
              })
            }
          >
            Reprendre maintenant
          </Button>
        )}
        {error && <FormStatus id={`${ids}-status`} error={error} className="basis-full" />}
      </section>
    );
  }

  if (!mayPause) return null;
  if (!open)
    return (
      <div>
        <Button size="sm" variant="secondary" icon={<PauseCircle className="size-4" aria-hidden="true" />} onClick={() => setOpen(true)}>
          Mettre en pause
        </Button>
      </div>
    );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${ids}-form-title`}
      className="space-y-3 rounded-2xl border border-white/10 bg-slate-950/40 p-4"
    >
      <h2 id={`${ids}-form-title`} className="font-semibold text-white">
        Mettre en pause
      </h2>
      <p className="text-sm text-slate-300">
        Pour un nettoyage, un réassort ou un dégivrage prévu{NNBSP}: les alertes s’ouvrent toujours, leurs notifications attendent la fin de
        la pause (24{NNBSP}h au plus, renouvelable).
      </p>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_auto]">
        <div className="space-y-1.5">
          <label htmlFor={`${ids}-reason`} className="block text-sm font-medium text-slate-200">
            Raison
          </label>
          <input
            id={`${ids}-reason`}
            list={`${ids}-reasons`}
            value={reason}
            maxLength={200}
            required
            onChange={(event) => setReason(event.target.value)}
            aria-describedby={`${ids}-status`}
            className={`${inputClass} h-11`}
          />
          <datalist id={`${ids}-reasons`}>
            {REASONS.map((option) => (
              <option key={option} value={option} />
            ))}
          </datalist>
        </div>
        <div className="space-y-1.5">
          <label htmlFor={`${ids}-minutes`} className="block text-sm font-medium text-slate-200">
            Durée
          </label>
          <select
            id={`${ids}-minutes`}
            value={minutes}
            onChange={(event) => setMinutes(Number(event.target.value))}
            className={`${inputClass} h-11`}
          >
            {DURATIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label.replace(' ', NNBSP)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-end gap-2">
          <Button type="submit" variant="primary" busy={start.isPending} className="h-11">
            Mettre en pause
          </Button>
          <Button type="button" variant="ghost" className="h-11" onClick={() => setOpen(false)}>
            Annuler
          </Button>
        </div>
      </div>
      <FormStatus id={`${ids}-status`} error={error} />
    </form>
  );
}
