import type { Report } from '@vigie/contract';
import { PenLine } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useSignReport } from '../api/report-mutations';
import { FieldLabel } from '@/components/ui/field-label';

/** REPORT_COMMENT_MAX_LENGTH of the contract, not imported: its module would bring zod into the page. */
const COMMENT_MAX_LENGTH = 1000;

/**
 * Signing a report: an optional comment, then « Signer le rapport ». The report never changes; the
 * signature (who, when, the comment) is recorded beside it.
 */
export function SignReportForm({
  id,
  report,
  onSigned,
  onCancel,
}: {
  id?: string;
  report: Report;
  onSigned: (report: Report) => void;
  onCancel: () => void;
}) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const sign = useSignReport();
  const fieldId = useId();
  const hintId = useId();
  const statusId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const text = comment.trim();
    sign.mutate(
      { id: report.id, ...(text ? { comment: text } : {}) },
      {
        onSuccess: onSigned,
        onError: (failure) => setError(errorMessage(failure, 'Le rapport n’a pas été signé.')),
      },
    );
  };

  return (
    <form
      id={id}
      onSubmit={onSubmit}
      noValidate
      aria-label="Signer le rapport"
      className="space-y-2 rounded-xl border border-cyan-300/20 bg-cyan-400/5 p-3"
    >
      <FieldLabel htmlFor={fieldId}>Commentaire (facultatif)</FieldLabel>
      <textarea
        id={fieldId}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        rows={2}
        maxLength={COMMENT_MAX_LENGTH}
        // The person asked to sign: the comment is where they go next.
        autoFocus
        placeholder="Relevés vérifiés, excursion du 12 traitée."
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={`${hintId} ${statusId}`}
        className={inputClass}
      />
      <p id={hintId} className="text-xs text-slate-400">
        Votre nom, la date et l’heure sont enregistrés avec la signature. Le rapport lui-même ne change pas.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="primary" busy={sign.isPending} icon={<PenLine className="size-4" aria-hidden="true" />}>
          Signer le rapport
        </Button>
        <Button onClick={onCancel} disabled={sign.isPending}>
          Annuler
        </Button>
      </div>
      <FormStatus id={statusId} error={error} />
    </form>
  );
}
