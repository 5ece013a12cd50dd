import { useQuery } from '@tanstack/react-query';
import { useOwner } from '@/lib/auth';
import { reportsQueryOptions } from '../api/get-reports';
import { awaitingSignature, unsignedLabel } from '../report-format';

/**
 * How many reports wait for a signature, for the link to « Rapports » wherever it is (0 while not
 * known). `enabled` is false for whoever may not read the reports: nothing is asked then.
 */
export function useUnsignedReports(enabled = true): number {
  const owner = useOwner();
  const { data } = useQuery({ ...reportsQueryOptions({ owner, siteId: null }), enabled: enabled && Boolean(owner) });
  return data ? awaitingSignature(data) : 0;
}

/** The accessible name of a link to « Rapports » that carries the count: « Rapports, 2 non signés ». */
export function reportsLinkLabel(count: number): string | undefined {
  return count > 0 ? `Rapports, ${unsignedLabel(count)}` : undefined;
}

/** The count beside « Rapports », for the eye (the link's name says it to a screen reader). */
export function UnsignedReportsBadge({ count, className = '' }: { count: number; className?: string }) {
  if (count <= 0) return null;
  return (
    <span
      aria-hidden="true"
      data-testid="reports-unsigned-count"
      className={`grid min-w-5 place-items-center rounded-full bg-amber-300 px-1.5 text-xs font-bold text-slate-950 ${className}`}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}
