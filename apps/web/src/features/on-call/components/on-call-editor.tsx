import type { OnCallResponse } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { DetailSection, inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { useMembers, useOnCall, useUpdateOnCall } from '../api/on-call';
import { daysText, hoursText, LADDER_LABELS, ladderText, memberLabel, nowText, orderText } from '../on-call-format';
import { draftOf, LADDER_KEYS, MAX_SLOTS, move, nameOf, newSlot, readRota, type LadderDraft, type SlotDraft } from './rota-draft';
import { SlotEditor } from './slot-editor';

const LADDER_HINT =
  'Pour une alerte critique\u202F: notification, puis SMS, puis appel, puis la personne suivante, jusqu’à ce que quelqu’un la prenne en compte.';
const ORDER_HINT = 'Les créneaux sont lus dans l’ordre\u202F: mettez «\u202FJours fériés\u202F» en premier.';

const field = 'space-y-1.5';

/** The rota as admins and managers change it: its slots in order, and the ladder; saved whole. */
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
