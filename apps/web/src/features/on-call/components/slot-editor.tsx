import type { Member, OnCallDay } from '@vigie/contract';
import { ON_CALL_DAYS } from '@vigie/contract/values';
import { ArrowDown, ArrowUp, Trash2, UserPlus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FieldLabel } from '@/components/ui/field-label';
import { inputClass } from '@/components/ui/section';
import { DAY_LABELS, hoursText, memberLabel } from '../on-call-format';
import { MAX_PEOPLE, move, nameOf, type SlotDraft } from './rota-draft';

const field = 'space-y-1.5';

/** One slot of the rota: its name and hours, its days, its people in order, and its own moves. */
export function SlotEditor({
  slot,
  index,
  count,
  members,
  names,
  onChange,
  onMove,
  onRemove,
}: {
  slot: SlotDraft;
  index: number;
  count: number;
  members: readonly Member[] | undefined;
  names: ReadonlyMap<string, string>;
  onChange: (slot: SlotDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const title = `Créneau ${index + 1}`;

  const toggleDay = (day: OnCallDay, on: boolean) =>
    onChange({ ...slot, days: ON_CALL_DAYS.filter((known) => (known === day ? on : slot.days.includes(known))) });

  return (
    <li>
      <fieldset className="min-w-0 space-y-4 rounded-xl border border-white/10 p-4">
        <legend className="px-1 text-sm font-semibold text-white">{title}</legend>
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_auto_auto]">
          <div className={field}>
            <FieldLabel htmlFor={`${id}-name`}>Nom du créneau</FieldLabel>
            <input
              id={`${id}-name`}
              value={slot.name}
              maxLength={60}
              onChange={(event) => onChange({ ...slot, name: event.target.value })}
              className={inputClass}
            />
          </div>
          <div className={field}>
            <FieldLabel htmlFor={`${id}-from`}>De</FieldLabel>
            <input
              id={`${id}-from`}
              type="time"
              value={slot.from}
              onChange={(event) => onChange({ ...slot, from: event.target.value })}
              className={`${inputClass} sm:w-32`}
            />
          </div>
          <div className={field}>
            <FieldLabel htmlFor={`${id}-to`}>À</FieldLabel>
            <input
              id={`${id}-to`}
              type="time"
              value={slot.to}
              onChange={(event) => onChange({ ...slot, to: event.target.value })}
              className={`${inputClass} sm:w-32`}
            />
          </div>
        </div>
        <p className="text-xs text-slate-400">
          {slot.from && slot.to ? `Horaire\u202F: ${hoursText(slot.from, slot.to)}.` : 'Indiquez l’heure de début et de fin.'} Une fin avant
          le début court jusqu’au lendemain matin{'\u202F'}; une fin égale au début couvre toute la journée.
        </p>
        <fieldset className="min-w-0">
          <legend className="mb-2 text-sm font-medium text-slate-200">Jours</legend>
          <div className="flex flex-wrap gap-2">
            {ON_CALL_DAYS.map((day) => (
              <label
                key={day}
                className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-white/15 px-3 py-1.5 text-sm text-slate-200 has-[:checked]:border-cyan-300/60 has-[:checked]:bg-cyan-400/15 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-cyan-300"
              >
                <input
                  type="checkbox"
                  checked={slot.days.includes(day)}
                  onChange={(event) => toggleDay(day, event.target.checked)}
                  className="size-4 accent-cyan-400"
                />
                {DAY_LABELS[day]}
              </label>
            ))}
          </div>
        </fieldset>
        <SlotPeople id={id} slot={slot} members={members} names={names} onChange={onChange} />
        <div className="flex flex-wrap gap-2 border-t border-white/10 pt-3">
          {count > 1 && (
            <>
              <Button
                size="sm"
                disabled={index === 0}
                aria-label={`Monter le créneau ${index + 1}`}
                onClick={() => onMove(-1)}
                icon={<ArrowUp className="size-4" aria-hidden="true" />}
              >
                Monter le créneau
              </Button>
              <Button
                size="sm"
                disabled={index === count - 1}
                aria-label={`Descendre le créneau ${index + 1}`}
                onClick={() => onMove(1)}
                icon={<ArrowDown className="size-4" aria-hidden="true" />}
              >
                Descendre le créneau
              </Button>
            </>
          )}
          <Button size="sm" variant="danger" onClick={onRemove} icon={<Trash2 className="size-4" aria-hidden="true" />}>
            Supprimer le créneau
          </Button>
        </div>
      </fieldset>
    </li>
  );
}

/** A slot's people in the order they are called, each moved or removed, and one more picked among the members. */
function SlotPeople({
  id,
  slot,
  members,
  names,
  onChange,
}: {
  id: string;
  slot: SlotDraft;
  members: readonly Member[] | undefined;
  names: ReadonlyMap<string, string>;
  onChange: (slot: SlotDraft) => void;
}) {
  const [pick, setPick] = useState('');
  const available = (members ?? []).filter((member) => !slot.people.includes(member.id));

  const add = () => {
    if (!pick || slot.people.includes(pick)) return;
    onChange({ ...slot, people: [...slot.people, pick] });
    setPick('');
  };

  return (
    <div className="space-y-2">
      <p id={`${id}-people`} className="text-sm font-medium text-slate-200">
        Personnes, dans l’ordre où elles sont prévenues
      </p>
      {slot.people.length > 0 ? (
        <ol aria-labelledby={`${id}-people`} className="space-y-2">
          {slot.people.map((person, position) => {
            const name = nameOf(names, person);
            return (
              <li key={person} className="flex flex-wrap items-center gap-2 rounded-lg border border-white/10 px-3 py-2">
                <span className="min-w-0 flex-1 text-sm [overflow-wrap:anywhere] text-white">
                  <span className="text-slate-400" aria-hidden="true">
                    {position + 1}.{' '}
                  </span>
                  {name}
                </span>
                <span className="flex flex-wrap gap-1">
                  <Button
                    size="sm"
                    disabled={position === 0}
                    aria-label={`Monter ${name}`}
                    onClick={() => onChange({ ...slot, people: move(slot.people, position, -1) })}
                    icon={<ArrowUp className="size-4" aria-hidden="true" />}
                  >
                    <span className="max-sm:sr-only">Monter</span>
                  </Button>
                  <Button
                    size="sm"
                    disabled={position === slot.people.length - 1}
                    aria-label={`Descendre ${name}`}
                    onClick={() => onChange({ ...slot, people: move(slot.people, position, 1) })}
                    icon={<ArrowDown className="size-4" aria-hidden="true" />}
                  >
                    <span className="max-sm:sr-only">Descendre</span>
                  </Button>
                  <Button
                    size="sm"
                    variant="danger"
                    aria-label={`Retirer ${name}`}
                    onClick={() => onChange({ ...slot, people: slot.people.filter((other) => other !== person) })}
                    icon={<X className="size-4" aria-hidden="true" />}
                  >
                    <span className="max-sm:sr-only">Retirer</span>
                  </Button>
                </span>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="text-sm text-slate-400">Personne pour l’instant{'\u202F'}: ajoutez au moins une personne.</p>
      )}
      {slot.people.length < MAX_PEOPLE && (
        <div className="flex flex-wrap items-end gap-2">
          <div className={`${field} min-w-0 flex-1 sm:max-w-xs`}>
            <FieldLabel htmlFor={`${id}-pick`}>Ajouter une personne</FieldLabel>
            <select
              id={`${id}-pick`}
              value={pick}
              disabled={!members}
              onChange={(event) => setPick(event.target.value)}
              className={inputClass}
            >
              <option value="">{members ? 'Choisir un membre…' : 'Chargement des membres…'}</option>
              {available.map((member) => (
                <option key={member.id} value={member.id}>
                  {memberLabel(member)}
                </option>
              ))}
            </select>
          </div>
          <Button disabled={!pick} onClick={add} icon={<UserPlus className="size-4" aria-hidden="true" />}>
            Ajouter
          </Button>
        </div>
      )}
    </div>
  );
}
