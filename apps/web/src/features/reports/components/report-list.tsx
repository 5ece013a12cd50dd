import type { Site } from '@vigie/contract';
import { FileText } from 'lucide-react';
import { useId } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/errors';
import { useReports } from '../api/get-reports';
import { awaitingSignature, countOf, formatReportMonth, groupReports, unsignedLabel } from '../report-format';
import { ReportCard } from './report-card';
import { LOAD_ERROR } from '@/lib/fallback-text';
import { FieldLabel } from '@/components/ui/field-label';

const selectClass =
  'w-full rounded-xl border border-white/15 bg-slate-950/70 px-3 py-2.5 text-sm text-white focus:border-cyan-300/60 sm:w-auto';

/** Placeholder cards while the reports load; still, without shimmer, when less motion is asked for. */
function ReportSkeleton() {
  return (
    <div role="status" aria-live="polite" aria-busy="true">
      <span className="sr-only">Chargement des rapports…</span>
      <ul className="space-y-4" aria-hidden="true">
        {[0, 1].map((index) => (
          <li
            key={index}
            data-testid="report-skeleton"
            className="relative overflow-hidden rounded-2xl border border-white/5 bg-white/[0.03] p-5"
          >
            <div className="h-4 w-40 rounded-full bg-white/[0.08]" />
            <div className="mt-3 h-3 w-2/3 rounded-full bg-white/[0.05]" />
            <div className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-4">
              {[0, 1, 2, 3].map((cell) => (
                <div key={cell} className="h-10 rounded-lg bg-white/[0.04]" />
              ))}
            </div>
            <div className="absolute inset-0 -translate-x-full animate-shimmer bg-gradient-to-r from-transparent via-white/[0.04] to-transparent motion-reduce:hidden" />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The reports, per site and month, the latest months first; every version of a month stays
 * listed (what was signed remains visible), the newest on top.
 */
export function ReportList({
  sites,
  siteId,
  onSiteChange,
  canManage,
  who,
}: {
  sites: Site[];
  /** The site shown, or null for all of them. */
  siteId: string | null;
  onSiteChange: (siteId: string | null) => void;
  canManage: boolean;
  /** A member's display name, or null when unknown. */
  who: (userId: string | null) => string | null;
}) {
  const query = useReports({ siteId });
  const filterId = useId();
  const titleId = useId();
  const reports = query.data ?? [];
  // The site's current name; a deleted site keeps the name its reports were made under.
  const siteName = (id: string) =>
    sites.find((site) => site.id === id)?.name ?? reports.find((report) => report.siteId === id)?.summary.siteName ?? 'Site supprimé';
  const groups = groupReports(reports, siteName);
  const waiting = awaitingSignature(reports);

  return (
    <section aria-labelledby={titleId} className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id={titleId} className="text-lg font-semibold text-white">
            Rapports établis
          </h2>
          {query.data && reports.length > 0 && (
            <p className="text-sm text-slate-300">
              {countOf(reports.length, 'rapport')}
              {waiting > 0 ? ` · ${unsignedLabel(waiting)}` : ' · tous signés'}
            </p>
          )}
        </div>
        <div className="space-y-1.5">
          <FieldLabel htmlFor={filterId}>Site affiché</FieldLabel>
          <select id={filterId} value={siteId ?? ''} onChange={(event) => onSiteChange(event.target.value || null)} className={selectClass}>
            <option value="">Tous les sites</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
      </div>

      {query.isError ? (
        <Alert
          action={
            <Button size="sm" variant="danger" onClick={() => void query.refetch()}>
              Réessayer
            </Button>
          }
        >
          {errorMessage(query.error, LOAD_ERROR)}
        </Alert>
      ) : query.isPending ? (
        <ReportSkeleton />
      ) : groups.length === 0 ? (
        <div className="flex flex-col items-center rounded-3xl border border-dashed border-white/15 bg-slate-900/40 px-4 py-12 text-center sm:px-6">
          <span className="grid size-14 place-items-center rounded-2xl bg-gradient-to-br from-cyan-400/20 to-violet-500/20 text-cyan-200">
            <FileText className="size-7" aria-hidden="true" />
          </span>
          <p className="mt-5 max-w-md text-sm leading-relaxed text-slate-300">
            Aucun rapport pour l’instant. Le rapport du mois précédent est établi automatiquement le 1<sup>er</sup> de chaque mois.
          </p>
        </div>
      ) : (
        <ul className="space-y-6">
          {groups.map((group) => (
            <li key={group.key} className="space-y-3">
              {group.versions.length > 1 && (
                <p className="text-sm text-slate-400">
                  {`${formatReportMonth(group.month)} · ${siteName(group.siteId)}\u00A0: ${countOf(group.versions.length, 'version')}, la plus récente en premier`}
                </p>
              )}
              <ul className="space-y-3">
                {group.versions.map((report, index) => (
                  <li key={report.id}>
                    <ReportCard report={report} siteName={siteName(report.siteId)} latest={index === 0} canManage={canManage} who={who} />
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
