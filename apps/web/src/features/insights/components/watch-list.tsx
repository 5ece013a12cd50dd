import type { WatchItem } from '@vigie/contract';
import { Eye, RotateCw } from 'lucide-react';
import { Link } from 'react-router';
import { useNow } from '@/hooks/use-now';
import type { CameFromState } from '@/lib/came-from';
import { errorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/measure-format';
import { useWatch } from '../api/get-watch';
import { anomalyLabel, breachText, shortExplanation } from '../insights-format';
import { CappedList } from './capped-list';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** Shown at first, then on demand; beyond `MAX`, only counted: a large estate keeps its dashboard. */
const INITIAL = 5;
const MAX = 20;

const URGENCY_CLASS = (urgency: number) => (urgency >= 0.7 ? 'bg-red-400' : urgency >= 0.4 ? 'bg-amber-300' : 'bg-slate-500');

type WatchListProps = {
  /** One site's sensors; every site's without it. */
  siteId?: string;
  /** The page a sensor's name leads to. */
  sensorPath: (sensorId: string) => string;
  /** Where that page leads back to: the page showing this list. */
  linkState?: CameFromState;
  /** The time zone of a site, so that times read as the shop's clock shows them. */
  timeZoneOf?: (siteId: string) => string | undefined;
  /** Each item names its site (not on a site's own page). */
  showSite?: boolean;
  headingLevel?: 2 | 3;
  className?: string;
};

function WatchEntry({
  item,
  sensorPath,
  linkState,
  timeZone,
  showSite,
  now,
}: {
  item: WatchItem;
  sensorPath: (sensorId: string) => string;
  linkState: CameFromState | undefined;
  timeZone: string | undefined;
  showSite: boolean;
  now: number;
}) {
  return (
    <div data-testid="watch-item" className="flex h-full gap-3 rounded-xl border border-white/10 bg-slate-950/40 p-3">
      <span className={`w-1 shrink-0 self-stretch rounded-full ${URGENCY_CLASS(item.urgency)}`} aria-hidden="true" />
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <Link
            to={sensorPath(item.sensorId)}
            state={linkState}
            className="font-medium [overflow-wrap:anywhere] text-white underline-offset-4 hover:underline"
          >
            {item.sensorName}
          </Link>
          {showSite && <span className="text-xs [overflow-wrap:anywhere] text-slate-400">{item.siteName}</span>}
        </p>
        {item.breach && (
          <p className="text-amber-100">
            <span className="font-semibold">{'Dépassement prévu\u202F: '}</span>
            {breachText(item.breach, item.key, now, timeZone)}
          </p>
        )}
        {item.anomaly && (
          <p className="text-slate-300">
            <span className="font-semibold text-slate-100">{`${anomalyLabel(item.anomaly.kind)}\u202F: `}</span>
            {shortExplanation(item.anomaly.explanation)}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * « À surveiller »: the sensors with a predicted breach or a current anomaly, ranked by the server
 * (most urgent first), each leading to its page with the reason in a few words.
 */
export function WatchList({
  siteId,
  sensorPath,
  linkState,
  timeZoneOf,
  showSite = true,
  headingLevel = 2,
  className = '',
}: WatchListProps) {
  const watch = useWatch({ siteId: siteId ?? null });
  const now = useNow(30_000);
  const headingId = `watch-title-${siteId ?? 'all'}`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const items = watch.data;

  return (
    <section aria-labelledby={headingId} aria-busy={watch.isFetching || undefined} className={className}>
      <div className="flex flex-wrap items-center gap-2">
        <Eye className="size-5 text-amber-300" aria-hidden="true" />
        <Heading id={headingId} className={`${headingLevel === 2 ? 'text-xl' : 'text-base'} font-semibold text-white`}>
          À surveiller
          {items && items.length > 0 && <span className="font-normal text-slate-400">{` (${formatNumber(items.length, 0)})`}</span>}
        </Heading>
      </div>
      <p className="mt-1 text-sm text-slate-300">
        Les capteurs dont Vigie prévoit un dépassement ou remarque un comportement anormal, les plus urgents d’abord.
      </p>
      <div className="mt-4">
        {items ? (
          items.length === 0 ? (
            <p className="text-sm text-slate-300">Rien à surveiller pour l’instant.</p>
          ) : (
            <CappedList
              items={items}
              itemKey={(item) => `${item.sensorId}-${item.key}`}
              renderItem={(item) => (
                <WatchEntry
                  item={item}
                  sensorPath={sensorPath}
                  linkState={linkState}
                  timeZone={timeZoneOf?.(item.siteId)}
                  showSite={showSite}
                  now={now}
                />
              )}
              initial={INITIAL}
              max={MAX}
              moreLabel={(count) => (count === 1 ? 'Voir le suivant' : `Voir les ${count} suivants`)}
              rest={(count) =>
                count === 1
                  ? 'Un autre capteur, moins urgent, n’est pas affiché.'
                  : `${formatNumber(count, 0)} autres capteurs, moins urgents, ne sont pas affichés.`
              }
              className="grid gap-2 lg:grid-cols-2"
            />
          )
        ) : watch.isError ? (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <p className="text-red-200">{errorMessage(watch.error, LOAD_ERROR)}</p>
            <button
              type="button"
              onClick={() => void watch.refetch()}
              className="inline-flex items-center gap-2 rounded-lg border border-white/15 px-3 py-1.5 font-medium text-slate-100 hover:bg-white/5"
            >
              <RotateCw className="size-4" aria-hidden="true" />
              Recharger la liste
            </button>
          </div>
        ) : (
          <p role="status" className="text-sm text-slate-300">
            Chargement de la liste…
          </p>
        )}
      </div>
    </section>
  );
}
