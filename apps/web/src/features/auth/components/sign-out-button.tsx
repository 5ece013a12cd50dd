import { LogOut } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useSignOutHome } from '../use-sign-out-home';

/** « Déconnexion » in the header of the signed-in pages: signs out and goes home. */
export function SignOutButton({ className = '' }: { className?: string }) {
  const onLogout = useSignOutHome();
  return (
    <Button
      variant="ghost"
      onClick={onLogout}
      icon={<LogOut className="size-4" aria-hidden="true" />}
      size="sm"
      className={`shrink-0 ${className}`}
    >
      Déconnexion
    </Button>
  );
}
