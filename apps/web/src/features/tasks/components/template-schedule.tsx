import type { TaskFrequency } from '@vigie/contract';
import { Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/section';
import { rowKey, type TemplateDraft } from '../template-draft';
import { WEEKDAY_LABELS } from '../template-format';
import { checkClass, chipClass, fieldClass, hintClass, legendClass, type FieldIds } from './template-fields';
import { FieldLabel } from '@/components/ui/field-label';

const NNBSP = '\u202F';

const FREQUENCY_LABELS: Record<TaskFrequency, string> = {
  daily: 'Tous les jours',
  weekly: 'Certains jours de la semaine',
  monthly: 'Un jour par mois',
  once: 'Une seule fois',
};

type ScheduleDraft = Pick<TemplateDraft, 'frequency' | 'times' | 'weekdays' | 'dayOfMonth' | 'dueAt' | 'windowMinutes' | 'graceMinutes'>;

/** When the tasks fall due: how often, at what times of the shop's clock, and how long each stays open. */
export function TemplateScheduleFields({
  draft,
  ids,
  onChange,
}: {
  draft: ScheduleDraft;
  ids: FieldIds;
  onChange: (changes: Partial<ScheduleDraft>) => void;
}) {
  const { frequency, times } = draft;
  const addTime = () => {
    const time = { key: rowKey(), value: '' };
    onChange({ times: [...times, time] });
    ids.focusLater(`time-${time.key}`);
  };
  const removeTime = (key: string) => {
    onChange({ times: times.filter((time) => time.key !== key) });
    ids.focusLater('add-time');
  };
  return (
    <fieldset className="min-w-0 space-y-4">
      <legend className={legendClass}>Calendrier</legend>
      <fieldset className="min-w-0">
        <legend className="mb-2 text-sm font-medium text-slate-200">Fréquence</legend>
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-4">
          {(Object.keys(FREQUENCY_LABELS) as TaskFrequency[]).map((value) => (
            <label key={value} className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-200">
              <input
                type="radio"
                name={ids.id('frequency')}
                value={value}
                checked={frequency === value}
                onChange={() => onChange({ frequency: value })}
                className={checkClass}
              />
              {FREQUENCY_LABELS[value]}
            </label>
          ))}
        </div>
      </fieldset>

      {frequency === 'weekly' && (
        <fieldset className="min-w-0">
          <legend className="mb-2 text-sm font-medium text-slate-200">Jours</legend>
          <div className="flex flex-wrap gap-2">
            {WEEKDAY_LABELS.map((label, index) => {
              const day = index + 1;
              return (
                <label key={day} className={chipClass}>
                  <input
                    id={ids.id(`weekday-${day}`)}
                    type="checkbox"
                    checked={draft.weekdays.includes(day)}
                    onChange={(event) =>
                      onChange({
                        weekdays: event.target.checked
                          ? [...draft.weekdays, day].sort((a, b) => a - b)
                          : draft.weekdays.filter((other) => other !== day),
                      })
                    }
                    className={checkClass}
                    {...(day === 1 ? ids.invalid('weekday-1') : {})}
                  />
                  {label}
                </label>
              );
            })}
          </div>
        </fieldset>
      )}

      {frequency === 'monthly' && (
        <div className={`${fieldClass} max-w-48`}>
          <FieldLabel htmlFor={ids.id('day-of-month')}>Jour du mois</FieldLabel>
          <input
            id={ids.id('day-of-month')}
            type="number"
            min={1}
            max={31}
            step={1}
            inputMode="numeric"
            value={draft.dayOfMonth}
            onChange={(event) => onChange({ dayOfMonth: event.target.value })}
            className={inputClass}
            {...ids.invalid('day-of-month', ids.id('day-of-month-hint'))}
          />
          <p id={ids.id('day-of-month-hint')} className={hintClass}>
            Au-delà de la fin du mois (le 31 en avril), le dernier jour du mois.
          </p>
        </div>
      )}

      {frequency === 'once' ? (
        <div className={`${fieldClass} max-w-72`}>
          <FieldLabel htmlFor={ids.id('due-at')}>Date et heure</FieldLabel>
          <input
            id={ids.id('due-at')}
            type="datetime-local"
            value={draft.dueAt}
            onChange={(event) => onChange({ dueAt: event.target.value })}
            className={inputClass}
            {...ids.invalid('due-at')}
          />
        </div>
      ) : (
        <fieldset className="min-w-0 space-y-2">
          <legend className="mb-1 text-sm font-medium text-slate-200">Heures</legend>
          <p className={hintClass}>À l’heure de chaque magasin{NNBSP}: 8 h reste 8 h au changement d’heure.</p>
          <ul className="flex flex-wrap gap-3">
            {times.map((time, index) => (
              <li key={time.key} className="flex items-center gap-2">
                <label htmlFor={ids.id(`time-${time.key}`)} className="sr-only">
                  {`Heure ${index + 1}`}
                </label>
                <input
                  id={ids.id(`time-${time.key}`)}
                  type="time"
                  value={time.value}
                  onChange={(event) =>
                    onChange({ times: times.map((other) => (other.key === time.key ? { ...other, value: event.target.value } : other)) })
                  }
                  className={`${inputClass} w-32`}
                  {...ids.invalid(`time-${time.key}`)}
                />
                <Button
                  size="sm"
                  onClick={() => removeTime(time.key)}
                  disabled={times.length <= 1}
                  aria-label={`Retirer l’heure ${index + 1}`}
                  icon={<X className="size-4" aria-hidden="true" />}
                />
              </li>
            ))}
          </ul>
          <Button
            id={ids.id('add-time')}
            size="sm"
            onClick={addTime}
            disabled={times.length >= 24}
            icon={<Plus className="size-4" aria-hidden="true" />}
            {...ids.invalid('add-time')}
          >
            Ajouter une heure
          </Button>
        </fieldset>
      )}

      <div className="grid gap-3 sm:grid-cols-2">
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.id('window')}>Fenêtre (en minutes)</FieldLabel>
          <input
            id={ids.id('window')}
            type="number"
            min={1}
            max={1440}
            step={1}
            inputMode="numeric"
            value={draft.windowMinutes}
            onChange={(event) => onChange({ windowMinutes: event.target.value })}
            className={inputClass}
            {...ids.invalid('window', ids.id('window-hint'))}
          />
          <p id={ids.id('window-hint')} className={hintClass}>
            Le temps pour faire la tâche à partir de son heure.
          </p>
        </div>
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.id('grace')}>Délai de grâce (en minutes)</FieldLabel>
          <input
            id={ids.id('grace')}
            type="number"
            min={0}
            max={1440}
            step={1}
            inputMode="numeric"
            value={draft.graceMinutes}
            onChange={(event) => onChange({ graceMinutes: event.target.value })}
            className={inputClass}
            {...ids.invalid('grace', ids.id('grace-hint'))}
          />
          <p id={ids.id('grace-hint')} className={hintClass}>
            Après la fenêtre, la tâche se fait encore, en retard{NNBSP}; au-delà, elle est manquée et ouvre une alerte.
          </p>
        </div>
      </div>
    </fieldset>
  );
}
