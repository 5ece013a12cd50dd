import type { LabelHTMLAttributes } from 'react';

/** The look of a field's label above its control, the same in every form. */
export const fieldLabelClass = 'block text-sm font-medium text-slate-200';

/**
 * A field's label above its control (`htmlFor` names the control). Forms use it rather than
 * writing the label's classes again, so that every label reads alike.
 */
export function FieldLabel({ className, ...rest }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={className ? `${fieldLabelClass} ${className}` : fieldLabelClass} {...rest} />;
}
