/** Shown while a screen's code or data arrives. */
export function PageLoader({ label = 'Chargement…' }: { label?: string }) {
  return (
    <div className="grid min-h-dvh place-items-center px-6">
      <div role="status" className="flex flex-col items-center gap-4 text-slate-300">
        <span aria-hidden="true" className="size-10 animate-spin rounded-full border-2 border-cyan-400/20 border-t-cyan-300" />
        <p className="text-sm">{label}</p>
      </div>
    </div>
  );
}
