import { FileCheck2 } from 'lucide-react';
import { Link } from 'react-router';
import { useReports } from '../api/get-reports';
import { awaitingSignature, unsignedLabel } from '../report-format';

/** The link to « Rapports », with how many reports wait for a signature. */
export function ReportsLink({ className }: { className: string }) {
  const { data } = useReports();
  const count = data ? awaitingSignature(data) : 0;
  return (
    <Link to="/dashboard/rapports" aria-label={count > 0 ? `Rapports, ${unsignedLabel(count)}` : undefined} className={className}>
      <FileCheck2 className="size-4" aria-hidden="true" />
      Rapports
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="reports-unsigned-count"
          className="grid min-w-5 place-items-center rounded-full bg-amber-300 px-1.5 text-xs font-bold text-slate-950"
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
