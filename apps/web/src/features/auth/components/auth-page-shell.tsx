import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AnimatedBackground } from '@/components/animated-background';
import { BrandLogo } from '@/components/brand-logo';
import { PRODUCT_NAME } from '@/config/constants';

type AuthPageShellProps = {
  /** The page's title, in the tab and, with an intro, as its heading. */
  title: string;
  /** Without it, the content brings its own heading. */
  intro?: string;
  /** Where the header's back link goes; the login page by default. */
  back?: { to: string; label: string };
  children: ReactNode;
};

const BACK_TO_LOGIN = { to: '/login', label: 'Retour à la connexion' };

/** The frame of the pages one reaches before signing in (password forgotten, reset, invitation), like the login page. */
export function AuthPageShell({ title, intro, back = BACK_TO_LOGIN, children }: AuthPageShellProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <AnimatedBackground />
      <header className="mx-auto flex w-full max-w-6xl items-center justify-between gap-3 px-5 py-5 sm:px-8">
        <Link to="/" className="rounded-xl" aria-label={`${PRODUCT_NAME}, accueil`}>
          <BrandLogo />
        </Link>
        <Link
          to={back.to}
          className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-300 transition-colors hover:bg-white/5 hover:text-white"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          {back.label}
        </Link>
      </header>
      <main className="mx-auto w-full max-w-md flex-1 px-5 pb-16 pt-6 sm:px-0 sm:pt-12">
        <div className="rounded-3xl border border-white/10 bg-slate-900/60 p-6 shadow-2xl shadow-black/40 backdrop-blur-xl sm:p-8">
          {intro === undefined ? (
            children
          ) : (
            <>
              <h1 className="text-2xl font-bold text-white">{title}</h1>
              <p className="mt-2 text-sm text-slate-300">{intro}</p>
              <div className="mt-7">{children}</div>
            </>
          )}
        </div>
      </main>
    </div>
  );
}
