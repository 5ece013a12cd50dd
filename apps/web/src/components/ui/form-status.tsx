import type { ReactNode } from 'react';

type FormStatusProps = {
  /** What went wrong: shown in red and announced at once (`role="alert"`). */
  error?: ReactNode;
  /** What worked: announced politely (`role="status"`). */
  success?: ReactNode;
  /** For a field's `aria-describedby`. */
  id?: string;
  className?: string;
};

/**
 * What a form says after it is sent. The element is always there (a live region must exist
 * before its text changes), and keeps one line of height so that the form does not jump.
 */
export function FormStatus({ error, success, id, className = '' }: FormStatusProps) {
  const failed = Boolean(error);
  return (
    <p
      id={id}
      role={failed ? 'alert' : 'status'}
      className={`min-h-5 text-sm ${failed ? 'text-red-200' : 'text-emerald-200'} ${className}`}
    >
      {failed ? error : (success ?? '')}
    </p>
  );
}
