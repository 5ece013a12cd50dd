import type { Excursion } from '@vigie/contract';
import { degreeHoursAmount, excursionText, formatSpan } from '../insights-format';
import { CappedList } from './capped-list';

/** The stretches beyond a rule's limit over the analysed week, latest first: how far, how long, and both weighed in degree-hours. */
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
          {/* How far and how long first, in plain words; the single amount that weighs both after, explained. */}
          <p className="font-medium text-white">{excursionText(measureKey, excursion, now)}</p>
          <p className="mt-1 text-slate-300">
            <time dateTime={excursion.from}>{formatSpan(excursion.from, excursion.to, now, timeZone)}</time>
            {excursion.to === null && ' · en cours'}
          </p>
          <p className="mt-1 text-xs text-slate-400">
            {`Cumul\u202F: ${degreeHoursAmount(measureKey, excursion.degreeHours)}, l’écart à la limite multiplié par sa durée`}
          </p>
        </div>
      )}
      initial={3}
      moreLabel={(count) => (count === 1 ? 'Voir le suivant' : `Voir les ${count} suivants`)}
      className="space-y-2"
    />
  );
}
