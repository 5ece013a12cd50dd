import { House, LayoutDashboard, LogIn, RotateCw, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { AnimatedBackground } from '@/components/animated-background';
import { BrandLogo } from '@/components/brand-logo';
import { PRODUCT_NAME } from '@/config/constants';
import type { ErrorContent } from '../error-content';
import { CodeRain } from './code-rain';
import { GlitchText } from './glitch-text';

type ErrorPageProps = {
  content: ErrorContent;
  /** Replaces the title, e.g. for an unexpected error. */
  title?: string;
  description?: string;
  /** Technical detail for an unexpected error. */
  technicalMessage?: string;
};

const actionIcons: Record<string, LucideIcon> = { '/': House, '/dashboard': LayoutDashboard, '/login': LogIn };

export function ErrorPage({ content, title = content.title, description = content.description, technicalMessage }: ErrorPageProps) {
  const ActionIcon = content.code === '503' ? RotateCw : (actionIcons[content.action.to] ?? House);

  return (
    // Always the specification's dark page, even inside the signed-in app's light theme: its own
    // stacking context keeps the effects behind the text and in front of its background.
    <div data-theme="dark" className="relative isolate flex min-h-dvh flex-col bg-slate-950 text-slate-100">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      {content.codeRain ? <CodeRain /> : <AnimatedBackground />}
      <div
        aria-hidden="true"
        className="pointer-events-none fixed inset-0 -z-10 bg-[radial-gradient(ellipse_at_center,rgb(2_6_23/0.92)_0%,rgb(2_6_23/0.7)_45%,transparent_80%)]"
      />
      <header className="mx-auto w-full max-w-6xl px-5 py-5 sm:px-8">
        <Link to="/" className="inline-block rounded-xl">
          <BrandLogo />
        </Link>
      </header>
      <main className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-5 pb-20 text-center">
        <GlitchText text={content.code} className="font-mono text-[7rem] font-black leading-none tracking-tighter sm:text-[10rem]" />
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
        <p className="mt-4 max-w-lg text-base leading-relaxed text-slate-300 sm:text-lg">{description}</p>
        {technicalMessage && (
          <div className="mt-6 w-full max-w-lg rounded-xl border border-red-400/30 bg-slate-900/80 p-4 text-left">
            <p className="text-xs font-semibold uppercase tracking-wider text-red-300">Détail technique</p>
            <pre className="mt-2 overflow-x-auto whitespace-pre-wrap break-words font-mono text-sm text-red-100">{technicalMessage}</pre>
          </div>
        )}
        <Link
          to={content.action.to}
          className="mt-10 inline-flex items-center gap-2 rounded-xl bg-cyan-400 px-6 py-3 text-base font-semibold text-slate-950 shadow-lg shadow-cyan-500/25 transition hover:-translate-y-0.5 hover:bg-cyan-300"
        >
          <ActionIcon className="size-5" aria-hidden="true" />
          {content.action.label}
        </Link>
      </main>
    </div>
  );
}
