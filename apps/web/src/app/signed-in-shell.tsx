import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AnimatedBackground } from '@/components/animated-background';
import { BrandLogo } from '@/components/brand-logo';
import { useAuth } from '@/lib/auth';
import { SignOutButton } from '@/features/auth/components/sign-out-button';
import { LiveIndicator } from '@/features/live/live-indicator';
import { useLiveStream } from '@/features/live/use-live-stream';

/** Header and frame of the signed-in pages beyond the dashboard, with the live stream open. */
export function SignedInShell({ children }: { children: ReactNode }) {
  const { token, user } = useAuth();
  const live = useLiveStream({ token, owner: user?.id });

  return (
    <div className="flex min-h-dvh flex-col">
      <AnimatedBackground />
      <header className="sticky top-0 z-30 border-b border-white/5 bg-slate-950/75 backdrop-blur-xl">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-5 sm:px-8">
          <Link to="/" className="shrink-0 rounded-xl">
            <BrandLogo />
          </Link>
          <div className="flex items-center gap-3">
            <LiveIndicator status={live} compact />
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-5 py-8 sm:px-8 sm:py-10">
        <Link
          to="/dashboard"
          className="mb-6 inline-flex items-center gap-2 rounded-lg text-sm font-medium text-cyan-200 hover:text-cyan-100"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Tableau de bord
        </Link>
        {children}
      </main>
    </div>
  );
}
