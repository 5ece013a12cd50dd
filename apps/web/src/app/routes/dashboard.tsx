import { QrCode, User as UserIcon } from 'lucide-react';
import { Link } from 'react-router';
import { AnimatedBackground } from '@/components/animated-background';
import { BrandLogo } from '@/components/brand-logo';
import { PRODUCT_NAME } from '@/config/constants';
import { useAuth } from '@/lib/auth';
import { SignOutButton } from '@/features/auth/components/sign-out-button';
import { DeviceDashboard } from '@/features/devices/components/device-dashboard';
import { LiveIndicator } from '@/features/live/live-indicator';
import { useLiveStream } from '@/features/live/use-live-stream';

export default function DashboardRoute() {
  const { token, user } = useAuth();
  const displayName = user?.name?.trim() || user?.email?.trim() || 'Utilisateur';
  const live = useLiveStream({ token, owner: user?.id });

  return (
    <div className="flex min-h-dvh flex-col">
      <title>{`Tableau de bord · ${PRODUCT_NAME}`}</title>
      <AnimatedBackground />
      <header className="sticky top-0 z-30 border-b border-white/5 bg-slate-950/75 backdrop-blur-xl">
        {/* On a phone the user moves to a second row, so that nothing has to be cut. */}
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-5 py-3 sm:h-16 sm:flex-nowrap sm:px-8 sm:py-0">
          <Link to="/" className="order-1 shrink-0 rounded-xl">
            <BrandLogo />
          </Link>
          <p className="order-3 flex w-full min-w-0 items-center gap-2.5 border-t border-white/5 pt-2 text-sm sm:order-2 sm:ml-auto sm:w-auto sm:border-0 sm:pt-0">
            <span className="grid size-8 shrink-0 place-items-center rounded-full bg-gradient-to-br from-cyan-400/30 to-violet-500/30 text-cyan-100">
              <UserIcon className="size-4" aria-hidden="true" />
            </span>
            <span className="min-w-0">
              <span className="block truncate font-medium text-white">{displayName}</span>
              {user?.organization?.name && <span className="block truncate text-xs text-slate-400">{user.organization.name}</span>}
            </span>
          </p>
          <SignOutButton className="order-2 sm:order-3" />
        </div>
      </header>

      <main className="mx-auto w-full max-w-6xl flex-1 px-5 py-10 sm:px-8">
        <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold tracking-tight text-white">Tableau de bord</h1>
            <p className="mt-2 text-slate-300">Gérez les émetteurs et les capteurs connectés de vos points de vente.</p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <LiveIndicator status={live} />
            <Link
              to="/dashboard/installation"
              className="inline-flex items-center gap-2 rounded-xl border border-cyan-300/30 bg-cyan-400/10 px-4 py-2.5 text-sm font-semibold text-cyan-100 transition-colors hover:border-cyan-300/60 hover:bg-cyan-400/20"
            >
              <QrCode className="size-4" aria-hidden="true" />
              Installation
            </Link>
          </div>
        </div>
        <DeviceDashboard />
      </main>
    </div>
  );
}
