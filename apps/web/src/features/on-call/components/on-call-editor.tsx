import type { Ladder, Member, OnCallDay, OnCallResponse, OnCallSlot } from '@vigie/contract';
import { ON_CALL_DAYS } from '@vigie/contract/values';
import { endpoints } from '@vigie/contract/routes';
import { ArrowDown, ArrowUp, Plus, Trash2, UserPlus, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { DetailSection, inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { useMembers, useOnCall, useUpdateOnCall } from '../api/on-call';
import { DAY_LABELS, daysText, hoursText, LADDER_LABELS, ladderText, memberLabel, nowText, orderText } from '../on-call-format';

/** The contract's bounds, restated for the buttons that add: 20 slots a site, 10 people a slot. */
const MAX_SLOTS = 20;
const MAX_PEOPLE = 10;

const LADDER_KEYS = Object.keys(LADDER_LABELS) as (keyof Ladder)[];

const LADDER_HINT =
  'Pour une alerte critique\u202F: notification, puis SMS, puis appel, puis la personne suivante, jusqu’à ce que quelqu’un la prenne en compte.';
const ORDER_HINT = 'Les créneaux sont lus dans l’ordre\u202F: mettez «\u202FJours fériés\u202F» en premier.';

type SlotDraft = OnCallSlot & { key: number };
type LadderDraft = Record<keyof Ladder, string>;

/** Keys that follow a slot when it moves, so that its inputs keep their focus and text. */
let nextSlotKey = 0;
const draftOf = (slot: OnCallSlot): SlotDraft => ({ ...slot, days: [...slot.days], people: [...slot.people], key: (nextSlotKey += 1) });

/** « Ajouter un créneau »: weekday nights, to be named and staffed. */
const newSlot = (): SlotDraft =>
  draftOf({ name: 'Nuits de semaine', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '20:00', to: '07:00', people: [] });

const nameOf = (names: ReadonlyMap<string, string>, id: string) => names.get(id) ?? 'Personne inconnue';

const move = <T,>(list: readonly T[], index: number, by: -1 | 1): T[] => {
  const next = [...list];
  const target = index + by;
  if (target < 0 || target >= next.length) return next;
  [next[index], next[target]] = [next[target] as T, next[index] as T];
  return next;
};

const field = 'space-y-1.5';
const label = 'block text-sm font-medium text-slate-200';

function SlotEditor({
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
  const [pick, setPick] = useState('');
  const id = useId();
  const title = `Créneau ${index + 1}`;
  const available = (members ?? []).filter((member) => !slot.people.includes(member.id));

  const toggleDay = (day: OnCallDay, on: boolean) =>
    onChange({ ...slot, days: ON_CALL_DAYS.filter((known) => (known === day ? on : slot.days.includes(known))) });

  const add = () => {
    if (!pick || slot.people.includes(pick)) return;
    onChange({ ...slot, people: [...slot.people, pick] });
    setPick('');
  };

  return (
    <li>
      <fieldset className="min-w-0 space-y-4 rounded-xl border border-white/10 p-4">
        <legend className="px-1 text-sm font-semibold text-white">{title}</legend>
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_auto_auto]">
          <div className={field}>
            <label htmlFor={`${id}-name`} className={label}>
              Nom du créneau
            </label>
            <input
              id={`${id}-name`}
              value={slot.name}
              maxLength={60}
              onChange={(event) => onChange({ ...slot, name: event.target.value })}
              className={inputClass}
            />
          </div>
          <div className={field}>
            <label htmlFor={`${id}-from`} className={label}>
              De
            </label>
            <input
              id={`${id}-from`}
              type="time"
              value={slot.from}
              onChange={(event) => onChange({ ...slot, from: event.target.value })}
              className={`${inputClass} sm:w-32`}
            />
          </div>
          <div className={field}>
            <label htmlFor={`${id}-to`} className={label}>
              À
            </label>
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
                <label htmlFor={`${id}-pick`} className={label}>
                  Ajouter une personne
                </label>
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

/** What is sent, or the French reason it is not: each slot has a day, its hours and a person; the ladder whole minutes. */
function readRota(slots: readonly SlotDraft[], ladder: LadderDraft): { slots: OnCallSlot[]; ladder: Ladder } | string {
  const read: OnCallSlot[] = [];
  for (const [index, slot] of slots.entries()) {
    const title = `Créneau ${index + 1}${slot.name.trim() ? ` (${slot.name.trim()})` : ''}`;
    if (slot.days.length === 0) return `${title}\u202F: cochez au moins un jour.`;
    if (!slot.from || !slot.to) return `${title}\u202F: indiquez l’heure de début et de fin.`;
    if (slot.people.length === 0) return `${title}\u202F: ajoutez au moins une personne.`;
    read.push({ name: slot.name.trim(), days: slot.days, from: slot.from, to: slot.to, people: slot.people });
  }
  const minutes: Partial<Ladder> = {};
  for (const key of LADDER_KEYS) {
    const text = ladder[key].trim();
    if (!/^\d+$/.test(text)) return `${LADDER_LABELS[key]}\u202F: un nombre entier de minutes est attendu.`;
    minutes[key] = Number(text);
  }
  return { slots: read, ladder: minutes as Ladder };
}

function RotaForm({ siteId, onCall }: { siteId: string; onCall: OnCallResponse['onCall'] }) {
  const update = useUpdateOnCall(siteId);
  const members = useMembers();
  const [slots, setSlots] = useState<SlotDraft[]>(() => onCall.slots.map(draftOf));
  const [ladder, setLadder] = useState<LadderDraft>(
    () => Object.fromEntries(LADDER_KEYS.map((key) => [key, String(onCall.ladder[key])])) as LadderDraft,
  );
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const id = useId();
  const names = new Map((members.data ?? []).map((member) => [member.id, memberLabel(member)]));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    const rota = readRota(slots, ladder);
    if (typeof rota === 'string') return setError(rota);
    setError(null);
    update.mutate(rota, {
      onSuccess: () => setSaved('Astreinte enregistrée.'),
      onError: (failure) => setError(errorMessage(failure, 'L’astreinte n’a pas été enregistrée.')),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <p className="text-sm text-slate-300">{ORDER_HINT}</p>
      {members.isError && <Alert size="compact">{errorMessage(members.error, 'Les membres n’ont pas pu être lus.')}</Alert>}
      {slots.length > 0 ? (
        <ol className="space-y-4">
          {slots.map((slot, index) => (
            <SlotEditor
              key={slot.key}
              slot={slot}
              index={index}
              count={slots.length}
              members={members.data}
              names={names}
              onChange={(changed) => setSlots(slots.map((other) => (other.key === slot.key ? changed : other)))}
              onMove={(by) => setSlots(move(slots, index, by))}
              onRemove={() => setSlots(slots.filter((other) => other.key !== slot.key))}
            />
          ))}
        </ol>
      ) : (
        <p className="text-sm text-slate-300">Aucun créneau{'\u202F'}: personne n’est réveillé pour ce site.</p>
      )}
      {slots.length < MAX_SLOTS && (
        <Button size="sm" onClick={() => setSlots([...slots, newSlot()])} icon={<Plus className="size-4" aria-hidden="true" />}>
          Ajouter un créneau
        </Button>
      )}
      <fieldset className="min-w-0 space-y-2">
        <legend className="text-sm font-medium text-slate-200">Échelle, pour chaque personne</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          {LADDER_KEYS.map((key) => (
            <div key={key} className={field}>
              <label htmlFor={`${id}-${key}`} className="block text-xs text-slate-400">
                {LADDER_LABELS[key]}
              </label>
              <input
                id={`${id}-${key}`}
                inputMode="numeric"
                value={ladder[key]}
                onChange={(event) => setLadder({ ...ladder, [key]: event.target.value })}
                className={inputClass}
              />
            </div>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" busy={update.isPending}>
          Enregistrer l’astreinte
        </Button>
        <FormStatus id={`${id}-status`} error={error} success={saved} />
      </div>
    </form>
  );
}

/** The rota as a viewer reads it: each slot in order, its days, hours and people, and the ladder. */
function RotaSummary({ onCall }: { onCall: OnCallResponse['onCall'] }) {
  const members = useMembers({ enabled: onCall.slots.length > 0 });
  const names = new Map((members.data ?? []).map((member) => [member.id, memberLabel(member)]));
  if (onCall.slots.length === 0) return <p className="text-sm text-slate-300">Aucun créneau d’astreinte pour ce site.</p>;
  return (
    <div className="space-y-3">
      <ol className="space-y-2">
        {onCall.slots.map((slot, index) => (
          <li key={index} className="rounded-xl border border-white/10 p-3 text-sm" data-testid="on-call-slot">
            <p className="font-medium [overflow-wrap:anywhere] text-white">{slot.name.trim() || `Créneau ${index + 1}`}</p>
            <p className="text-slate-300">
              {daysText(slot.days)}, {hoursText(slot.from, slot.to)}
            </p>
            <p className="[overflow-wrap:anywhere] text-slate-300">{orderText(slot.people.map((person) => nameOf(names, person)))}</p>
          </li>
        ))}
      </ol>
      <p className="text-sm text-slate-300">{ladderText(onCall.ladder)}</p>
    </div>
  );
}

/**
 * A site's « Astreinte »: who is on call now, and the rota (slots of days and hours, people in
 * order, the ladder), which admins and managers change and the others read.
 */
export function OnCallEditor({ siteId }: { siteId: string }) {
  const rota = useOnCall(siteId);
  const canEdit = useCan()(endpoints.onCall.update);
  return (
    <DetailSection id={`astreinte-${siteId}`} title="Astreinte" description={LADDER_HINT}>
      {rota.isError ? (
        <Alert size="compact">{errorMessage(rota.error, 'L’astreinte n’a pas pu être lue.')}</Alert>
      ) : !rota.data ? (
        <p role="status" className="text-sm text-slate-300">
          Chargement…
        </p>
      ) : (
        <div className="space-y-5">
          <p className="text-sm font-medium [overflow-wrap:anywhere] text-white" data-testid="on-call-now">
            {nowText(rota.data.now)}
          </p>
          {canEdit ? <RotaForm siteId={siteId} onCall={rota.data.onCall} /> : <RotaSummary onCall={rota.data.onCall} />}
        </div>
      )}
    </DetailSection>
  );
}
