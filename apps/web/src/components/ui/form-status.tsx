import { CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * What a form says after it is sent: a polite status when it worked, a red alert when it did
 * not. Renders nothing while there is nothing to say.
 */
export function FormStatus({ success, error, className = '' }: { success?: ReactNode; error?: ReactNode; className?: string }) {
  if (error) {
    return (
      <p role="alert" className={`text-sm text-red-200 ${className}`}>
        {error}
      </p>
    );
  }
  if (success) {
    return (
      <p role="status" className={`flex items-center gap-2 text-sm text-emerald-200 ${className}`}>
        <CheckCircle2 className="size-4 shrink-0" aria-hidden="true" />
        {success}
      </p>
    );
  }
  return null;
}
