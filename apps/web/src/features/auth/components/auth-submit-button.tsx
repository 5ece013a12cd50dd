import { LoaderCircle, type LucideIcon } from 'lucide-react';
import { authSubmitClass } from './auth-styles';

type AuthSubmitButtonProps = {
  pending: boolean;
  disabled?: boolean;
  icon: LucideIcon;
  label: string;
  /** What the button says while the request runs, e.g. « Envoi… ». */
  pendingLabel: string;
};

/** The main button of the forms before sign-in, as on the login form: a spinner while it works. */
export function AuthSubmitButton({ pending, disabled = false, icon: Icon, label, pendingLabel }: AuthSubmitButtonProps) {
  return (
    <button type="submit" disabled={pending || disabled} className={authSubmitClass}>
      {pending ? (
        <LoaderCircle className="size-5 animate-spin motion-reduce:animate-none" aria-hidden="true" />
      ) : (
        <Icon className="size-5" aria-hidden="true" />
      )}
      {pending ? pendingLabel : label}
    </button>
  );
}
