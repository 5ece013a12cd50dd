import type { Anomaly } from '@vigie/contract';
import { ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { anomalyLabel, anomalyStrength, formatSpan } from '../insights-format';
import { CappedList } from './capped-list';

const STRENGTH_CLASS = {
  forte: 'border-red-300/40 bg-red-500/15 text-red-100',
  moyenne: 'border-amber-300/40 bg-amber-400/10 text-amber-100',
  faible: 'border-white/15 bg-white/5 text-slate-200',
} as const;

/** An anomaly that reaches this close to now is still going on. */
const ONGOING_MS = 15 * 60_000;

type AnomalyItemProps = {
  anomaly: Anomaly;
  now: number;
  timeZone?: string | undefined;
  /** The forecast follows a departure from the unit's normal: an anomaly still going on is part of it. */
  departure?: boolean;
};

/**
 * One anomaly: its kind, when, how strong, and « Pourquoi ? » opening its explanation. While the
 * forecast follows a departure, an anomaly still going on says « en cours » rather than a strength
 * its score has not reached yet (« faible » beside « Le froid ne suit plus » read as a contradiction).
 */
export function AnomalyItem({ anomaly, now, timeZone, departure = false }: AnomalyItemProps) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const explanationId = useId();
  const ongoing = departure && Date.parse(anomaly.to) >= now - ONGOING_MS;
  const strength = ongoing ? 'moyenne' : anomalyStrength(anomaly.score);
  return (
    <article aria-labelledby={titleId} data-testid="anomaly" className="rounded-xl border border-white/10 bg-slate-950/40 p-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h4 id={titleId} className="font-medium text-white">
          {anomalyLabel(anomaly.kind)}
        </h4>
        <span className={`rounded-full border px-2 py-0.5 text-xs ${STRENGTH_CLASS[strength]}`}>
          {ongoing ? 'Anomalie en cours' : `Anomalie ${strength}`}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-300">
        <time dateTime={anomaly.from}>{formatSpan(anomaly.from, anomaly.to, now, timeZone)}</time>
      </p>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={explanationId}
        aria-describedby={titleId}
        onClick={() => setOpen(!open)}
        className="mt-2 inline-flex items-center gap-1 rounded-lg px-2 py-1 -ml-2 text-sm font-medium text-cyan-200 hover:bg-white/5"
      >
        {'Pourquoi\u202F?'}
        <ChevronDown
          className={`size-4 transition-transform motion-reduce:transition-none ${open ? 'rotate-180' : ''}`}
          aria-hidden="true"
        />
      </button>
      <p id={explanationId} hidden={!open} className="mt-1 text-sm text-slate-200">
        {anomaly.explanation}
      </p>
    </article>
  );
}

type AnomalyListProps = { anomalies: Anomaly[]; now: number; timeZone?: string | undefined; departure?: boolean };

/** The anomalies of the analysed week, latest first. */
export function AnomalyList({ anomalies, now, timeZone, departure = false }: AnomalyListProps) {
  if (anomalies.length === 0) return <p className="text-sm text-slate-300">Aucune anomalie remarquée sur les 7 derniers jours.</p>;
  const latestFirst = [...anomalies].sort((a, b) => Date.parse(b.from) - Date.parse(a.from));
  return (
    <CappedList
      items={latestFirst}
      itemKey={(anomaly) => `${anomaly.kind}-${anomaly.from}`}
      renderItem={(anomaly) => <AnomalyItem anomaly={anomaly} now={now} timeZone={timeZone} departure={departure} />}
      initial={4}
      moreLabel={(count) => (count === 1 ? 'Voir la suivante' : `Voir les ${count} suivantes`)}
      className="space-y-2"
    />
  );
}
