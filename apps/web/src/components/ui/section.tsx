import type { ReactNode } from 'react';

/** A titled panel of the device detail page. */
export function DetailSection({
  id,
  title,
  description,
  children,
  actions,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-2xl border border-white/10 bg-slate-900/60 p-5 shadow-lg shadow-black/20 backdrop-blur sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={id} className="text-lg font-semibold text-white">
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-slate-300">{description}</p>}
        </div>
        {actions}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export const inputClass =
  'w-full rounded-xl border border-white/15 bg-slate-950/70 px-3.5 py-2.5 text-sm text-white placeholder:text-slate-500 focus:border-cyan-300/60 aria-[invalid=true]:border-red-400/70';
export const primaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-xl bg-cyan-400 px-4 py-2.5 text-sm font-semibold text-slate-950 shadow-lg shadow-cyan-500/20 transition hover:bg-cyan-300 disabled:cursor-wait disabled:bg-cyan-400/70';
export const secondaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-xl border border-white/15 px-4 py-2.5 text-sm font-medium text-slate-100 transition-colors hover:border-white/25 hover:bg-white/5 disabled:cursor-wait disabled:opacity-70';
