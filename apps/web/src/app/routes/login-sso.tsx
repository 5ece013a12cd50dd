import { LoaderCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DEFAULT_AFTER_LOGIN } from '@/config/constants';
import { requestAccessTokenWithSsoCode } from '@/features/auth/api/login';
import { AuthPageShell } from '@/features/auth/components/auth-page-shell';
import { useAuth } from '@/lib/auth';

/** The page to reach afterwards: a path of this site only, never another site's address. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : DEFAULT_AFTER_LOGIN;
}

/**
 * /login/sso#code=…&next=…: the end of a sign-in through single sign-on. The one-time code, read
 * from the address's fragment (never sent to a server by the browser), is exchanged for a session
 * kept as a login keeps it; then the page first asked for. A code refused sends back to /login
 * with the reason.
 */
export default function LoginSsoRoute() {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const { startSession } = useAuth();
  // Once, even when React runs the effect twice: a code serves once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fragment = new URLSearchParams(hash.replace(/^#/, ''));
    const code = fragment.get('code');
    const next = safeNext(fragment.get('next'));
    // The code leaves the address bar and the history at once.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    void (async () => {
      const attempt = code ? await requestAccessTokenWithSsoCode(code) : null;
      const result = attempt?.ok && 'token' in attempt ? await startSession(attempt.token) : null;
      if (result?.success) {
        void navigate(next, { replace: true, state: next === DEFAULT_AFTER_LOGIN ? { signedIn: true } : undefined });
      } else {
        void navigate('/login?sso=code', { replace: true });
      }
    })();
  }, [hash, navigate, startSession]);

  return (
    <AuthPageShell title="Connexion">
      <p role="status" className="flex items-center gap-3 text-slate-200">
        <LoaderCircle className="size-5 animate-spin motion-reduce:animate-none" aria-hidden="true" />
        Connexion en cours…
      </p>
    </AuthPageShell>
  );
}
