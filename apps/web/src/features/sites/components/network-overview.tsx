import type { OverviewSite } from '@vigie/contract';
import { LoaderCircle } from 'lucide-react';
import { startTransition, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { formatNumber } from '@/lib/measure-format';
import { useOverview, useRegions } from '../api/get-overview';
import { LOAD_ERROR } from '@/lib/fallback-text';

type Sort = 'risk' | 'name' | 'compliance';

const SORTS: Record<Sort, string> = {
  risk: 'Les plus à surveiller d’abord',
  compliance: 'Conformité la plus basse d’abord',
  name: 'Nom',
};

const NNBSP = '\u202F';

/** « 99,9 % », or « — » when the shop measured nothing this month. */
export function complianceText(compliance: number | null): string {
  if (compliance === null) return '—';
  return `${formatNumber(Math.floor(compliance * 1000) / 10, 1)}${NNBSP}%`;
}

/**
 * The food-safety plan of the month: « 95 % · 2 manquées » (the share of tasks due that were done,
 * in time or late), or « — » when none was due.
 */
export function tasksText(tasks: OverviewSite['tasks']): string {
  if (!tasks || tasks.due === 0) return '—';
  const share = `${formatNumber(Math.floor(((tasks.done + tasks.late) / tasks.due) * 1000) / 10, 1)}${NNBSP}%`;
  return tasks.missed > 0 ? `${share} · ${formatNumber(tasks.missed, 0)} manquée${tasks.missed > 1 ? 's' : ''}` : share;
}

/** Rows in the table's first render: more than the tallest screen shows at once. */
export const FIRST_ROWS = 50;

/**
 * Whether the table may hold every row: false for its first render, true right after that render is
 * painted. A chain's 500 shops take several hundred milliseconds to render and lay out on a modest
 * machine, which the first screenful does not need: it is drawn on its own, then the rest joins it
 * (every row is in the page a moment later, for find-in-page, printing and screen readers; counts,
 * filters and sorting always work on the whole list). The animation frame runs just before the next
 * paint and the task it queues just after, so the first rows are on screen before the rest is
 * rendered; the transition lets a click on a filter meanwhile go first. Not a virtualized list:
 * the table stays an ordinary table, whole, once shown.
 */
function useAllRowsAfterFirstPaint(ready: boolean): boolean {
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (!ready || all) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setAll(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, all]);
  return all;
}

// One collator for every comparison: `localeCompare(…, 'fr')` builds one per call.
const byName = new Intl.Collator('fr').compare;

function sorted(sites: OverviewSite[], sort: Sort): OverviewSite[] {
  if (sort === 'risk') return sites;
  const copy = [...sites];
  if (sort === 'name') return copy.sort((a, b) => byName(a.name, b.name));
  return copy.sort((a, b) => (a.compliance ?? 2) - (b.compliance ?? 2) || byName(a.name, b.name));
}

/**
 * « Réseau »: every shop of the person's scope at a glance — sensors, offline, active alerts,
 * low batteries and this month's compliance — the worst first, filtered by region; a shop's name
 * opens its devices.
 */
export function NetworkOverview() {
  const overview = useOverview();
  const regions = useRegions();
  const [regionId, setRegionId] = useState('');
  const [sort, setSort] = useState<Sort>('risk');
  const regionField = useId();
  const sortField = useId();
  const allRows = useAllRowsAfterFirstPaint(overview.isSuccess);

  if (overview.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-slate-300">
        <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
        Chargement…
      </p>
    );
  }
  if (overview.isError) return <Alert>{LOAD_ERROR}</Alert>;

  const regionNames = new Map((regions.data ?? []).map((region) => [region.id, region.name]));
  const shown = sorted(
    overview.data.filter((site) => !regionId || site.regionId === regionId),
    sort,
  );
  const count = shown.length;
  const rows = allRows ? shown : shown.slice(0, FIRST_ROWS);

  return (
    <section aria-labelledby="network-heading">
      <h2 id="network-heading" className="sr-only">
        Magasins
      </h2>
      <div className="mb-4 flex flex-wrap items-end gap-4">
        {(regions.data ?? []).length > 0 && (
          <div>
            <label htmlFor={regionField} className="mb-1 block text-sm text-slate-300">
              Région
            </label>
            <select
              id={regionField}
              value={regionId}
              onChange={(event) => setRegionId(event.target.value)}
              className="rounded-xl border border-white/15 bg-slate-900 px-3 py-2 text-slate-100"
            >
              <option value="">Toutes les régions</option>
              {(regions.data ?? []).map((region) => (
                <option key={region.id} value={region.id}>
                  {region.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div>
          <label htmlFor={sortField} className="mb-1 block text-sm text-slate-300">
            Trier
          </label>
          <select
            id={sortField}
            value={sort}
            onChange={(event) => setSort(event.target.value as Sort)}
            className="rounded-xl border border-white/15 bg-slate-900 px-3 py-2 text-slate-100"
          >
            {(Object.keys(SORTS) as Sort[]).map((key) => (
              <option key={key} value={key}>
                {SORTS[key]}
              </option>
            ))}
          </select>
        </div>
        <p role="status" className="text-sm text-slate-300">
          {count === 0 ? 'Aucun magasin' : `${formatNumber(count, 0)} magasin${count > 1 ? 's' : ''}`}
        </p>
      </div>
      {count === 0 ? (
        <p className="rounded-2xl border border-white/10 bg-slate-900/60 p-6 text-slate-300">Aucun magasin dans votre périmètre.</p>
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-white/10 bg-slate-900/60">
          <table className="w-full min-w-[46rem] text-left text-sm">
            <caption className="sr-only">État de chaque magasin, ce mois-ci</caption>
            <thead className="text-slate-300">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Magasin
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Région
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  Capteurs
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  Hors ligne
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  Alertes actives
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  Piles faibles
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  Conformité du mois
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  Tâches du mois
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((site) => (
                <tr key={site.siteId} data-testid="network-site" className="border-t border-white/10">
                  <th scope="row" className="px-4 py-3 font-semibold text-white">
                    <Link to={`/dashboard?site=${site.siteId}`} className="underline-offset-4 hover:underline">
                      {site.name}
                    </Link>
                  </th>
                  <td className="px-4 py-3 text-slate-300">{site.regionId ? (regionNames.get(site.regionId) ?? '—') : '—'}</td>
                  <td className="px-4 py-3 text-right tabular-nums">{formatNumber(site.sensors, 0)}</td>
                  <td className={`px-4 py-3 text-right tabular-nums ${site.offline > 0 ? 'text-amber-200' : ''}`}>
                    {formatNumber(site.offline, 0)}
                  </td>
                  <td className={`px-4 py-3 text-right tabular-nums ${site.activeAlerts > 0 ? 'font-semibold text-rose-200' : ''}`}>
                    {formatNumber(site.activeAlerts, 0)}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">{formatNumber(site.lowBattery, 0)}</td>
                  <td className="px-4 py-3 text-right tabular-nums">{complianceText(site.compliance)}</td>
                  <td className={`px-4 py-3 text-right tabular-nums ${(site.tasks?.missed ?? 0) > 0 ? 'text-amber-200' : ''}`}>
                    {tasksText(site.tasks)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
