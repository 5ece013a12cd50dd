import { useEffect, useRef } from 'react';

/** What the editor's parts share: their ids, the field in error, and the look of their fields. */

export const fieldClass = 'space-y-1.5';
export const hintClass = 'text-xs text-slate-400';
export const legendClass = 'mb-2 text-sm font-semibold text-white';
export { checkClass, chipClass } from '@/components/ui/checkbox-list';

export type FieldIds = {
  /** The element id of a field, by the suffix that {@link readDraft} names it with. */
  id: (field: string) => string;
  /** `aria-invalid` and the error's description on the field in error, besides its own hint (`hintId`). */
  invalid: (field: string, hintId?: string) => { 'aria-invalid'?: true; 'aria-describedby'?: string };
  /** Puts the focus on a field once the next render is done (a row added, moved or removed). */
  focusLater: (field: string) => void;
};

/**
 * The editor's field ids: `base` (the form's own id) and a suffix. The field that the error is
 * about is marked invalid and described by the form's status.
 */
export function useFieldIds(base: string, invalidField: string | null, statusId: string): FieldIds {
  const pending = useRef<string | null>(null);
  // After every render: a row moved keeps the focus on the button that moved it, a row added takes it.
  useEffect(() => {
    if (!pending.current) return;
    document.getElementById(pending.current)?.focus();
    pending.current = null;
  });
  const id = (field: string) => `${base}-${field}`;
  return {
    id,
    invalid: (field, hintId) => {
      const describedBy = [hintId, invalidField === field ? statusId : undefined].filter(Boolean).join(' ');
      return {
        ...(invalidField === field ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      };
    },
    focusLater: (field) => {
      pending.current = id(field);
    },
  };
}
