import { startTransition } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '@/lib/auth';

/**
 * Logs out and goes home in one transition: the access guard must never see a signed-out user
 * still on a protected page, or it would send them to /login instead of home.
 */
export function useSignOutHome(): () => void {
  const { logout } = useAuth();
  const navigate = useNavigate();
  return () => {
    startTransition(() => {
      logout();
      void navigate('/');
    });
  };
}
