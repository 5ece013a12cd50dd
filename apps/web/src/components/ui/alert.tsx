import { AlertTriangle, X } from 'lucide-react';
import type { ReactNode } from 'react';

type AlertProps = {
  children: ReactNode;
  /** A button beside the text, such as « Réessayer ». */
  action?: ReactNode;
  /** Shows a close button. */
  onDismiss?: () => void;
  /** `compact` for inside a form. */
  size?: 'default' | 'compact';
  id?: string;
  className?: string;
};

/** The red alert of a failed action or load, announced at once (`role="alert"`). */
export function Alert({ children, action, onDismiss, size = 'default', id, className = '' }: AlertProps) {
  const box = size === 'compact' ? 'rounded-xl px-4 py-3' : 'rounded-2xl p-4';
  return (
    <div
      id={id}
      role="alert"
      className={`flex flex-wrap items-start gap-3 border border-red-400/40 bg-red-500/10 text-sm text-red-100 shadow-lg shadow-red-950/30 ${box} ${className}`}
    >
      {size === 'default' && <AlertTriangle className="mt-0.5 size-5 shrink-0 text-red-300" aria-hidden="true" />}
      <div className="min-w-0 flex-1 self-center [overflow-wrap:anywhere]">{children}</div>
      {action}
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Fermer le message d’erreur"
          className="-m-1 grid size-8 shrink-0 place-items-center rounded-lg text-red-200 hover:bg-red-400/15"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
