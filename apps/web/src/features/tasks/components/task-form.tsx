import type { Task, TaskItem } from '@vigie/contract';
import { Camera } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { uploadTaskPhoto, useCompleteTask } from '../api/task-queries';
import { limitsText, readAnswer, sendErrorText } from '../task-format';

const label = 'block text-sm font-medium text-slate-200';
const choice =
  'flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-white/10 bg-slate-950/40 px-3 py-2.5 text-sm text-slate-200 has-[:checked]:border-cyan-300/70 has-[:checked]:bg-cyan-400/10 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-cyan-300';
const warning = 'text-sm text-amber-200';

type Raw = string | boolean | undefined;

/** One item of the checklist: one tap for a yes/no or a choice, the phone's number pad for a number. */
function ItemField({ item, taskId, raw, onChange }: { item: TaskItem; taskId: string; raw: Raw; onChange: (value: Raw) => void }) {
  const id = useId();
  const [uploading, setUploading] = useState<string | null>(null);
  const read = readAnswer(item, raw);
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
        <label htmlFor={id} className={label}>
          {item.label}
        </label>
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
              (error: unknown) => setUploading(sendErrorText(error, 'La photo n’a pas été envoyée.')),
            );
          }}
        />
        <p className="flex items-center gap-2 text-sm text-slate-300" role="status">
          <Camera className="size-4" aria-hidden="true" />
          {uploading ?? (typeof raw === 'string' && raw ? 'Photo jointe.' : 'Prenez la photo avec l’appareil du téléphone.')}
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className={label}>
        {item.label}
        {item.type === 'number' && limits ? <span className="ml-2 font-normal text-slate-400">(attendu {limits})</span> : null}
      </label>
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

/** Answers a task's checklist; a non-conforming answer leads straight to its alert's corrective action. */
export function TaskForm({ task, onDone }: { task: Task; onDone?: (task: Task) => void }) {
  const complete = useCompleteTask();
  const [answers, setAnswers] = useState<Record<string, Raw>>({});
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const commentId = useId();
  const statusId = useId();
  const done = complete.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent: { itemId: string; value: string | number | boolean }[] = [];
    for (const item of task.items) {
      const read = readAnswer(item, answers[item.id]);
      if (read.error) return setError(read.error);
      if (read.value !== undefined) sent.push({ itemId: item.id, value: read.value });
    }
    setError(null);
    complete.mutate(
      { id: task.id, request: { answers: sent, ...(comment.trim() ? { comment: comment.trim() } : {}) } },
      { onSuccess: (saved) => onDone?.(saved) },
    );
  };

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
    <form noValidate onSubmit={submit} className="space-y-4" aria-describedby={statusId}>
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
        <label htmlFor={commentId} className={label}>
          Commentaire <span className="font-normal text-slate-400">(facultatif)</span>
        </label>
        <input id={commentId} type="text" className={inputClass} value={comment} onChange={(event) => setComment(event.target.value)} />
      </div>
      <FormStatus
        id={statusId}
        error={error ?? (complete.isError ? sendErrorText(complete.error, 'La tâche n’a pas été enregistrée.') : null)}
      />
      <Button type="submit" variant="primary" busy={complete.isPending}>
        Enregistrer
      </Button>
    </form>
  );
}
