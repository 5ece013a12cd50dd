import { LogOut } from 'lucide-react';
import { useSignOutHome } from '../use-sign-out-home';

/** « Déconnexion » in the header of the signed-in pages: signs out and goes home. */
export function SignOutButton({ className = '' }: { className?: string }) {
  const onLogout = useSignOutHome();
  return (
    <button
      type="button"
      onClick={onLogout}
      className={`inline-flex shrink-0 items-center gap-2 rounded-lg border border-white/10 px-3 py-2 text-sm font-medium text-slate-200 transition-colors hover:border-white/20 hover:bg-white/5 hover:text-white ${className}`}
    >
      <LogOut className="size-4" aria-hidden="true" />
      Déconnexion
    </button>
  );
}
