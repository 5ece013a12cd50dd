import { useQueryClient } from '@tanstack/react-query';
import type { Task, TaskItem } from '@vigie/contract';
import { answerText } from '@vigie/contract/values';
import { formatClock } from '@vigie/contract/clock';
import { Camera } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { ApiError } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { uploadTaskPhoto } from '../api/task-queries';
import { pendingAnswers, sendAnswers, type PendingPhoto } from '../offline-answers';
import { taskKeys } from '../task-keys';
import { limitsText, readAnswer, sendErrorText } from '../task-format';
import { FieldLabel, fieldLabelClass } from '@/components/ui/field-label';

const label = fieldLabelClass;
const choice =
  'flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-white/10 bg-slate-950/40 px-3 py-2.5 text-sm text-slate-200 has-[:checked]:border-cyan-300/70 has-[:checked]:bg-cyan-400/10 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-cyan-300';
const warning = 'text-sm text-amber-200';

/** What is typed or tapped for an item; a photo taken without network stays a file until it is sent. */
type Raw = string | boolean | Blob | undefined;

/** One item of the checklist: one tap for a yes/no or a choice, the phone's number pad for a number. */
function ItemField({ item, taskId, raw, onChange }: { item: TaskItem; taskId: string; raw: Raw; onChange: (value: Raw) => void }) {
  const id = useId();
  const [uploading, setUploading] = useState<string | null>(null);
  const read = readAnswer(item, raw instanceof Blob ? undefined : raw);
  const limits = limitsText(item);
  const outside = read.outside ? (
    <p id={`${id}-hint`} className={warning} role="status">
      Non conforme{limits ? `\u202F: attendu ${limits}` : ''}. Une alerte s’ouvrira pour l’action corrective.
    </p>
  ) : null;
  if (item.type === 'boolean' || item.type === 'choice') {
    const options: [string, Raw][] =
      item.type === 'boolean'
        ? [
            ['Oui', true],
            ['Non', false],
          ]
        : (item.options ?? []).map((option) => [option, option]);
    return (
      <fieldset className="space-y-2" aria-describedby={read.outside ? `${id}-hint` : undefined}>
        <legend className={label}>{item.label}</legend>
        <div className="flex flex-wrap gap-2">
          {options.map(([text, value]) => (
            <label key={text} className={choice}>
              <input type="radio" name={id} className="size-4 accent-cyan-400" checked={raw === value} onChange={() => onChange(value)} />
              {text}
            </label>
          ))}
        </div>
        {outside}
      </fieldset>
    );
  }
  if (item.type === 'photo') {
    return (
      <div className="space-y-2">
        <FieldLabel htmlFor={id}>{item.label}</FieldLabel>
        <input
          id={id}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          capture="environment"
          className="block w-full text-sm text-slate-300 file:mr-3 file:rounded-lg file:border-0 file:bg-cyan-400/15 file:px-3 file:py-2 file:text-cyan-100"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (!file) return;
            setUploading('Envoi de la photo…');
            uploadTaskPhoto(taskId, file).then(
              (photo) => {
                onChange(photo.id);
                setUploading(null);
              },
              (error: unknown) => {
                if (error instanceof ApiError && error.status === 0) {
                  // No network: the photo stays on the phone and leaves with the answers.
                  onChange(file);
                  setUploading('Pas de réseau : la photo est gardée sur ce téléphone et partira avec les réponses.');
                } else setUploading(sendErrorText(error, 'La photo n’a pas été envoyée.'));
              },
            );
          }}
        />
        <p className="flex items-center gap-2 text-sm text-slate-300" role="status">
          <Camera className="size-4" aria-hidden="true" />
          {uploading ??
            ((typeof raw === 'string' && raw) || raw instanceof Blob ? 'Photo jointe.' : 'Prenez la photo avec l’appareil du téléphone.')}
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-1.5">
      <FieldLabel htmlFor={id}>
        {item.label}
        {item.type === 'number' && limits ? <span className="ml-2 font-normal text-slate-400">(attendu {limits})</span> : null}
      </FieldLabel>
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="text"
          inputMode={item.type === 'number' ? 'decimal' : 'text'}
          autoComplete="off"
          className={inputClass}
          value={typeof raw === 'string' ? raw : ''}
          aria-invalid={read.outside || Boolean(raw && read.error) ? true : undefined}
          aria-describedby={read.outside ? `${id}-hint` : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
        {item.unit && <span className="text-sm text-slate-300">{item.unit}</span>}
      </div>
      {outside}
    </div>
  );
}

/**
 * Answers a task's checklist; a non-conforming answer leads straight to its alert's corrective
 * action. Without network the answers are kept on the phone with the moment they were given, and
 * sent once it is back (offline-answers.ts).
 */
export function TaskForm({ task, timeZone }: { task: Task; timeZone?: string }) {
  const owner = useOwner();
  const queryClient = useQueryClient();
  const [answers, setAnswers] = useState<Record<string, Raw>>({});
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Task | null>(null);
  const [keptAt, setKeptAt] = useState<string | null>(null);
  const commentId = useId();
  const statusId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const sent: { itemId: string; value: string | number | boolean }[] = [];
    const photos: PendingPhoto[] = [];
    const lines: string[] = [];
    for (const item of task.items) {
      const raw = answers[item.id];
      if (raw instanceof Blob) {
        photos.push({ itemId: item.id, file: raw });
        lines.push(`${item.label}\u202F: photo`);
        continue;
      }
      const read = readAnswer(item, raw);
      if (read.error) return setError(read.error);
      if (read.value === undefined) continue;
      sent.push({ itemId: item.id, value: read.value });
      lines.push(
        `${item.label}\u202F: ${item.type === 'photo' ? 'photo' : answerText({ value: read.value, ...(item.unit ? { unit: item.unit } : {}) })}`,
      );
    }
    setError(null);
    setBusy(true);
    const request = { answers: sent, ...(comment.trim() ? { comment: comment.trim() } : {}), completedAt: new Date().toISOString() };
    try {
      const outcome = await sendAnswers({ taskId: task.id, owner, request, photos });
      if (outcome.kind === 'sent') {
        setDone(outcome.task);
        void queryClient.invalidateQueries({ queryKey: taskKeys.all(owner) });
      } else if (outcome.kind === 'offline') {
        await pendingAnswers.keep({ taskId: task.id, taskName: task.name, owner, request, photos, lines, state: 'waiting' });
        setKeptAt(request.completedAt);
      } else setError(outcome.message);
    } catch (caught) {
      setError(sendErrorText(caught, 'La tâche n’a pas été enregistrée.'));
    } finally {
      setBusy(false);
    }
  };

  if (keptAt) {
    return (
      <p className="rounded-xl border border-cyan-300/40 bg-cyan-400/10 p-4 text-cyan-50" role="status">
        Pas de réseau{'\u202F'}: réponses gardées sur ce téléphone à {formatClock(keptAt, timeZone)}. Elles seront envoyées dès le retour du
        réseau, avec cette heure.
      </p>
    );
  }

  if (done) {
    return done.result === 'nonconforming' ? (
      <div className="space-y-2 rounded-xl border border-amber-300/40 bg-amber-400/10 p-4" role="status">
        <p className="font-semibold text-amber-100">Enregistrée, non conforme.</p>
        {done.alertId && (
          <Link to={`/dashboard/alertes/${done.alertId}`} className="inline-block font-semibold text-cyan-200 underline underline-offset-4">
            Noter l’action corrective
          </Link>
        )}
      </div>
    ) : (
      <p className="rounded-xl border border-emerald-300/30 bg-emerald-400/10 p-4 text-emerald-100" role="status">
        Enregistrée, conforme.
      </p>
    );
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-describedby={statusId}>
      {task.items.map((item) => (
        <ItemField
          key={item.id}
          item={item}
          taskId={task.id}
          raw={answers[item.id]}
          onChange={(value) => setAnswers((current) => ({ ...current, [item.id]: value }))}
        />
      ))}
      <div className="space-y-1.5">
        <FieldLabel htmlFor={commentId}>
          Commentaire <span className="font-normal text-slate-400">(facultatif)</span>
        </FieldLabel>
        <input id={commentId} type="text" className={inputClass} value={comment} onChange={(event) => setComment(event.target.value)} />
      </div>
      <FormStatus id={statusId} error={error} />
      <Button type="submit" variant="primary" busy={busy}>
        Enregistrer
      </Button>
    </form>
  );
}
