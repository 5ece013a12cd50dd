import type { Pause } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { PauseCircle, PlayCircle } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { showToast } from '@/components/ui/toast';
import { formatUntil } from '@/lib/clock-format';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { pauseOf, useEndPause, usePauses, useStartPause } from '../api/pause-queries';
import { FieldLabel } from '@/components/ui/field-label';

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

/** The pause of a whole shop going on now (a pause of one of its sensors is not the shop's). */
function sitePauseOf(pauses: readonly Pause[] | undefined, siteId: string): Pause | null {
  return pauses?.find((pause) => !pause.sensorId && pause.siteId === siteId) ?? null;
}

/** What is paused: a sensor (its page), or a whole shop (the Magasins page). */
type PauseTarget = { sensor: { id: string; siteId: string | null }; site?: never } | { site: { id: string }; sensor?: never };

/** The words of each target; the sensor's are those its page has always shown. */
const WORDS = {
  sensor: {
    action: 'Mettre en pause',
    paused: 'Capteur en pause',
    resume: 'Reprendre maintenant',
    why: 'Pour un nettoyage, un réassort ou un dégivrage prévu',
    alerts: 'les alertes',
  },
  site: {
    action: 'Mettre en pause le magasin',
    paused: 'Magasin en pause',
    resume: 'Reprendre',
    why: 'Pour un inventaire, un nettoyage ou des travaux dans tout le magasin',
    alerts: 'les alertes de tous ses capteurs',
  },
} as const;

/**
 * « Mettre en pause » a sensor or a whole shop for planned work (cleaning, restocking, a planned
 * defrost): its alerts still open, their notifications wait until the pause ends. Shows the pause
 * going on (for a sensor, its own or its shop's) and, for those who may, ends it. `headingLevel`:
 * 3 inside a section titled at level 2, as a shop on the Magasins page is.
 */
export function PauseControl({
  sensor,
  site,
  timeZone,
  headingLevel = 2,
}: PauseTarget & { timeZone?: string | undefined; headingLevel?: 2 | 3 }) {
  const pauses = usePauses();
  const start = useStartPause();
  const end = useEndPause();
  const can = useCan();
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [minutes, setMinutes] = useState(60);
  const [error, setError] = useState<string | null>(null);
  const reasonField = useRef<HTMLInputElement>(null);
  const words = sensor ? WORDS.sensor : WORDS.site;
  const pause = sensor ? pauseOf(pauses.data, sensor) : sitePauseOf(pauses.data, site.id);
  const mayPause = can(endpoints.pauses.create);
  const Heading = headingLevel === 3 ? 'h3' : 'h2';

  // The form replaces the button just pressed: the focus goes on to its first field.
  useEffect(() => {
    if (open) reasonField.current?.focus();
  }, [open]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    start.mutate(
      { ...(sensor ? { sensorId: sensor.id } : { siteId: site.id }), reason: reason.trim(), minutes },
      {
        onSuccess: (started) => {
          setOpen(false);
          setReason('');
          showToast({ message: `${words.paused} jusqu’à ${formatUntil(Date.parse(started.until), timeZone)}.` });
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
          <Heading id={`${ids}-title`} className="font-semibold break-words text-white">
            {pause.sensorId ? WORDS.sensor.paused : WORDS.site.paused} jusqu’à {formatUntil(Date.parse(pause.until), timeZone)}
            {NNBSP}: {pause.reason}
          </Heading>
          <p className="text-sm text-amber-100">Les alertes s’ouvrent toujours{NNBSP}; leurs notifications attendent la fin de la pause.</p>
        </div>
        {can(endpoints.pauses.end) && (
          <Button
            size="sm"
            className="min-h-11"
            busy={end.isPending}
            icon={<PlayCircle className="size-4" aria-hidden="true" />}
            onClick={() =>
              end.mutate(pause.id, {
                onSuccess: () => showToast({ message: `Pause terminée${NNBSP}: les notifications reprennent.` }),
                onError: (failure) => setError(errorMessage(failure, 'La pause n’a pas été terminée.')),
              })
            }
          >
            {words.resume}
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
        <Button
          size="sm"
          variant="secondary"
          className="min-h-11"
          icon={<PauseCircle className="size-4" aria-hidden="true" />}
          onClick={() => setOpen(true)}
        >
          {words.action}
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
      <Heading id={`${ids}-form-title`} className="font-semibold text-white">
        {words.action}
      </Heading>
      <p className="text-sm text-slate-300">
        {words.why}
        {NNBSP}: {words.alerts} s’ouvrent toujours, leurs notifications attendent la fin de la pause (24{NNBSP}h au plus, renouvelable).
      </p>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_auto]">
        <div className="space-y-1.5">
          <FieldLabel htmlFor={`${ids}-reason`}>Raison</FieldLabel>
          <input
            ref={reasonField}
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
          <FieldLabel htmlFor={`${ids}-minutes`}>Durée</FieldLabel>
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
        <div className="flex flex-wrap items-end gap-2">
          <Button type="submit" variant="primary" busy={start.isPending} className="h-11">
            {words.action}
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
