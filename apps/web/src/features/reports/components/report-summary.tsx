import type { ReportSummary, ReportUnitSummary } from '@vigie/contract';
import { formatNumber } from '@/lib/measure-format';
import { countOf, formatCompliance, formatLimits, formatSeconds } from '../report-format';

/** Green at 100 %, amber from 95 %, red below; grey without limits. */
function complianceTone(percent: number | null): string {
  if (percent === null) return 'text-slate-300';
  if (percent >= 100) return 'text-emerald-300';
  if (percent >= 95) return 'text-amber-200';
  return 'text-red-300';
}

function Fact({ term, value, note }: { term: string; value: string; note?: string | null }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-400">{term}</dt>
      <dd className="font-semibold text-white">
        {value}
        {note && <span className="block text-xs font-normal text-slate-400">{note}</span>}
      </dd>
    </div>
  );
}

/** Short rises the rules tolerate (a door opened, a defrost): out of limits too, counted apart. */
function briefRises(count: number, seconds?: number): string | null {
  if (count === 0) return null;
  const rises = countOf(count, 'hausse brève tolérée', 'hausses brèves tolérées');
  return seconds === undefined ? `+ ${rises}` : `+ ${rises} · ${formatSeconds(seconds)}`;
}

function excursions(count: number, seconds: number): string {
  return count === 0 ? 'Aucune' : `${countOf(count, 'excursion')} · ${formatSeconds(seconds)}`;
}

const openItems = (count: number) => (count === 0 ? 'Aucune' : formatNumber(count, 0));

function UnitRow({ unit }: { unit: ReportUnitSummary }) {
  return (
    <li data-testid="report-unit" className="rounded-xl border border-white/10 bg-slate-950/40 p-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="min-w-0 font-semibold text-white [overflow-wrap:anywhere]">{unit.name}</p>
        {unit.compliancePercent === null ? (
          // Without limits there is no compliance to measure: say so rather than « — conforme ».
          <p className="text-sm text-slate-400">Sans limite, pas de taux de conformité</p>
        ) : (
          <p className="text-sm text-slate-300">
            <span className="sr-only">Conformité{'\u00A0'}: </span>
            <span className={`text-lg font-bold ${complianceTone(unit.compliancePercent)}`}>
              {formatCompliance(unit.compliancePercent)}
            </span>
            <span aria-hidden="true"> conforme</span>
          </p>
        )}
      </div>
      <p className="mt-0.5 text-xs text-slate-400">
        Limites{'\u00A0'}: {formatLimits(unit.min, unit.max)}
      </p>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
        <Fact
          term="Excursions"
          value={excursions(unit.excursionCount, unit.excursionSeconds)}
          note={briefRises(unit.briefExcursionCount, unit.briefExcursionSeconds)}
        />
        <Fact term="Sans données" value={formatSeconds(unit.noDataSeconds)} />
        <Fact term="Alertes non closes" value={openItems(unit.openItems)} />
      </dl>
    </li>
  );
}

/** What the report's first page says: the site's totals, then each unit's compliance. */
export function ReportSummaryPreview({ summary }: { summary: ReportSummary }) {
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-xl bg-white/[0.03] p-3 text-sm sm:grid-cols-4">
        <Fact term="Unités" value={String(summary.units.length)} />
        <Fact
          term="Excursions"
          value={excursions(summary.excursionCount, summary.excursionSeconds)}
          note={briefRises(summary.briefExcursionCount)}
        />
        <Fact term="Sans données" value={formatSeconds(summary.noDataSeconds)} />
        <Fact term="Alertes non closes" value={openItems(summary.openItems)} />
      </dl>
      {summary.units.length === 0 ? (
        <p className="text-sm text-slate-300">Aucun capteur suivi sur ce site pendant la période.</p>
      ) : (
        <ul aria-label="Unités" className="space-y-2">
          {summary.units.map((unit) => (
            <UnitRow key={unit.sensorId} unit={unit} />
          ))}
        </ul>
      )}
    </div>
  );
}
