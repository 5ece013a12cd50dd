/** The fields and main button of the pages before sign-in, as on the login form. */
export const authInputClass =
  'block w-full rounded-xl border border-white/10 bg-slate-900/70 px-4 py-3 text-base text-white placeholder:text-slate-400 shadow-inner shadow-black/20 transition-colors focus:border-cyan-300/70 focus:outline-none focus-visible:ring-2 focus-visible:ring-cyan-300/40';

export const authSubmitClass =
  'flex w-full items-center justify-center gap-2 rounded-xl bg-cyan-400 px-4 py-3 text-base font-semibold text-slate-950 shadow-lg shadow-cyan-500/20 transition hover:bg-cyan-300 disabled:cursor-not-allowed disabled:bg-slate-600 disabled:text-slate-200 disabled:shadow-none';
