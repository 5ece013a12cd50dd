import type { Check, Site } from '@vigie/contract';
import { CHECK_KIND_LABELS } from '@vigie/contract/values';
import { LoaderCircle } from 'lucide-react';
import { useId } from 'react';
import { Alert } from '@/components/ui/alert';
import { DetailSection, inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/measure-format';
import { useChecks } from '../api/check-queries';
import { decisionText, formatCheckTemperature } from '../check-format';
import { FieldLabel } from '@/components/ui/field-label';

const NNBSP = '\u202F';

function CheckItem({ check, siteName, sensorName }: { check: Check; siteName: string | null; sensorName: (id: string) => string }) {
  const decision = decisionText(check);
  const facts: [string, string][] = [
    ...(check.kind === 'delivery' && check.supplier ? ([['Fournisseur', check.supplier]] as [string, string][]) : []),
    ...(check.sensorId ? ([['Meuble', sensorName(check.sensorId)]] as [string, string][]) : []),
    ...(siteName ? ([['Magasin', siteName]] as [string, string][]) : []),
  ];
  return (
    <li data-testid="check-item" className="rounded-xl border border-white/10 bg-slate-950/40 p-3 sm:p-4">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-wide text-cyan-200">{CHECK_KIND_LABELS[check.kind]}</p>
          <p className="mt-0.5 font-semibold text-white [overflow-wrap:anywhere]">
            {check.product ?? (check.sensorId ? sensorName(check.sensorId) : '—')}
          </p>
        </div>
        <p data-testid="check-temperature" className="text-xl font-bold text-white">
          {formatCheckTemperature(check.temperature)}
        </p>
      </div>
      <p className="mt-1 text-xs text-slate-400">
        <time dateTime={check.takenAt}>{formatDateTime(check.takenAt)}</time> · par {check.takenBy.name}
      </p>
      {facts.length > 0 && (
        <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {facts.map(([term, value]) => (
            <div key={term} className="flex min-w-0 gap-1.5">
              <dt className="shrink-0 text-slate-400">{`${term}${NNBSP}:`}</dt>
              <dd className="text-slate-100 [overflow-wrap:anywhere]">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {decision && (
        <p
          data-testid="check-decision"
          className={`mt-2 inline-flex rounded-full border px-2.5 py-0.5 text-sm font-semibold ${
            check.accepted ? 'border-emerald-400/40 bg-emerald-500/10 text-emerald-200' : 'border-red-400/50 bg-red-500/15 text-red-200'
          }`}
        >
          {decision}
        </p>
      )}
      {check.note && (
        <p className="mt-2 whitespace-pre-line text-sm text-slate-300 [overflow-wrap:anywhere]">
          <span className="text-slate-400">{`Remarque${NNBSP}: `}</span>
          {check.note}
        </p>
      )}
    </li>
  );
}

/** The checks taken by hand in the shops one sees, newest first; one shop's only when one is chosen. */
export function CheckList({
  sites,
  siteId,
  onSiteChange,
  sensorName,
}: {
  sites: readonly Site[];
  /** null: every shop. */
  siteId: string | null;
  onSiteChange: (siteId: string | null) => void;
  sensorName: (sensorId: string) => string;
}) {
  const checks = useChecks({ siteId });
  const filterId = useId();
  const siteNames = new Map(sites.map((site) => [site.id, site.name]));
  // A chosen shop's name needs no repeating on each line.
  const siteNameOf = (check: Check) => (siteId ? null : (siteNames.get(check.siteId) ?? null));

  return (
    <DetailSection
      id={`${filterId}-title`}
      title="Contrôles notés"
      description="Du plus récent au plus ancien. Ils figurent dans le rapport HACCP du mois, à part des relevés des capteurs."
      actions={
        <div className="w-full space-y-1.5 sm:w-64">
          <FieldLabel htmlFor={filterId}>Magasin</FieldLabel>
          <select id={filterId} value={siteId ?? ''} onChange={(event) => onSiteChange(event.target.value || null)} className={inputClass}>
            <option value="">Tous les magasins</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
      }
    >
      {checks.isError ? (
        <Alert size="compact">{errorMessage(checks.error, 'Les contrôles n’ont pas pu être lus.')}</Alert>
      ) : !checks.data ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Chargement des contrôles…
        </p>
      ) : checks.data.length === 0 ? (
        <p className="text-sm text-slate-300">{siteId ? 'Aucun contrôle noté dans ce magasin.' : 'Aucun contrôle noté pour l’instant.'}</p>
      ) : (
        <ul aria-label="Contrôles notés" className="space-y-3">
          {checks.data.map((check) => (
            <CheckItem key={check.id} check={check} siteName={siteNameOf(check)} sensorName={sensorName} />
          ))}
        </ul>
      )}
    </DetailSection>
  );
}
