type SkeletonGridProps = {
  /** How many placeholder cards to show. */
  count?: number;
  label?: string;
};

/** Placeholder cards while a list loads. */
export function SkeletonGrid({ count = 6, label = 'Chargement…' }: SkeletonGridProps) {
  return (
    <div role="status" aria-live="polite" aria-busy="true">
      <span className="sr-only">{label}</span>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-hidden="true">
        {Array.from({ length: count }, (_, index) => (
          <li
            key={index}
            data-testid="skeleton-card"
            className="relative overflow-hidden rounded-2xl border border-white/5 bg-white/[0.03] p-5"
          >
            <div className="flex items-start gap-4">
              <div className="size-11 shrink-0 rounded-xl bg-white/[0.06]" />
              <div className="flex-1 space-y-3 pt-1">
                <div className="h-3.5 w-2/3 rounded-full bg-white/[0.08]" />
                <div className="h-3 w-1/2 rounded-full bg-white/[0.05]" />
              </div>
            </div>
            <div className="absolute inset-0 -translate-x-full animate-shimmer bg-gradient-to-r from-transparent via-white/[0.04] to-transparent" />
          </li>
        ))}
      </ul>
    </div>
  );
}
