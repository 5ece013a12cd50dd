import type { Excursion } from '@vigie/contract';
import { formatMeasure } from '@/lib/measure-format';
import { degreeHoursText, formatSpan } from '../insights-format';
import { CappedList } from './capped-list';

/** The stretches beyond a rule's limit over the analysed week, latest first, weighed in degree-hours. */
export function ExcursionList({
  excursions,
  measureKey,
  now,
  timeZone,
}: {
  excursions: Excursion[];
  measureKey: string;
  now: number;
  timeZone?: string | undefined;
}) {
  if (excursions.length === 0) return <p className="text-sm text-slate-300">Aucun dépassement de limite sur les 7 derniers jours.</p>;
  const latestFirst = [...excursions].sort((a, b) => Date.parse(b.from) - Date.parse(a.from));
  return (
    <CappedList
      items={latestFirst}
      itemKey={(excursion) => `${excursion.ruleId}-${excursion.from}`}
      renderItem={(excursion) => (
        <div data-testid="excursion" className="rounded-xl border border-white/10 bg-slate-950/40 p-3 text-sm">
          <p className="font-medium text-white">
            {degreeHoursText(measureKey, excursion.degreeHours, excursion.threshold, excursion.peak)}
          </p>
          <p className="mt-1 text-slate-300">
            <time dateTime={excursion.from}>{formatSpan(excursion.from, excursion.to, now, timeZone)}</time>
            {` · pic à ${formatMeasure(measureKey, excursion.peak)}`}
            {excursion.to === null && ' · en cours'}
          </p>
        </div>
      )}
      initial={3}
      moreLabel={(count) => (count === 1 ? 'Voir le suivant' : `Voir les ${count} suivants`)}
      className="space-y-2"
    />
  );
}
