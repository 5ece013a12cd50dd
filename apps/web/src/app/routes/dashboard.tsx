import { PackagePlus } from 'lucide-react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { PRODUCT_NAME } from '@/config/constants';
import { useActiveAlerts } from '@/features/alerts/api/get-alerts';
import { AlertsBanner } from '@/features/alerts/components/alerts-banner';
import { isPredicted } from '@/features/alerts/components/alert-value';
import { DeviceDashboard } from '@/features/devices/components/device-dashboard';
import { deviceDetailPath } from '@/features/devices/device-paths';
import { WatchList } from '@/features/insights/components/watch-list';
import { useSites } from '@/features/sites/api/get-sites';
import { useNow } from '@/hooks/use-now';
import { useCameFromHere } from '@/lib/came-from';
import { forecastLabel } from '@/lib/forecast-label';
import { usePermissions } from '@/lib/permissions';
import { useAuth } from '@/lib/auth';
import { useCardAnnotations } from '../card-annotations';
import { PAGES } from '../navigation/pages';

const primaryLinkClass =
  'inline-flex min-h-11 items-center gap-2 rounded-xl bg-gradient-to-r from-cyan-400 to-violet-500 px-4 py-2.5 text-sm font-semibold text-slate-950 shadow-lg shadow-cyan-500/20 transition-colors hover:from-cyan-300 hover:to-violet-400';

export default function DashboardRoute() {
  const sites = useSites();
  // « Réseau » opens a shop: its devices, on arrival.
  const [params] = useSearchParams();
  const alerts = useActiveAlerts();
  const { manage } = usePermissions();
  // The worst active alert of each sensor turns its card red (critical) or amber (warning).
  const worst = new Map<string, 'critical' | 'warning'>();
  for (const alert of alerts.data ?? []) {
    if (alert.sensorId && worst.get(alert.sensorId) !== 'critical') worst.set(alert.sensorId, alert.severity);
  }
  const siteNames = new Map((sites.data ?? []).map((site) => [site.id, site.name]));
  const timeZones = new Map((sites.data ?? []).map((site) => [site.id, site.timezone]));
  // A « dépassement prévu » reads as a forecast on its card, never as the reading.
  const now = useNow();
  const { user } = useAuth();
  const location = useLocation();
  // A device opened from here leads back here, to the shop chosen on arrival if any.
  const cameFromHere = useCameFromHere(PAGES.dashboard.label);
  const forecasts = new Map<string, string>();
  const measured = new Set<string>();
  for (const alert of alerts.data ?? []) {
    if (!alert.sensorId) continue;
    if (!isPredicted(alert) || !alert.key) measured.add(alert.sensorId);
    else if (!forecasts.has(alert.sensorId))
      forecasts.set(alert.sensorId, forecastLabel(alert.key, alert.forecast, now, timeZones.get(alert.siteId ?? '')));
  }
  // Each sensor's limit and pause, from the rules and pauses the person sees.
  const { limitOf, pauseOf } = useCardAnnotations((siteId) => timeZones.get(siteId));
  const forecastOf = (id: string) => {
    const label = forecasts.get(id);
    return label ? { label, only: !measured.has(id) } : null;
  };

  // Someone who sees several shops of a chain (and not the whole organization) lands on « Réseau ».
  const severalShops = user?.scope && (user.scope.regionIds.length > 0 || user.scope.siteIds.length > 1);
  if (severalShops && (location.state as { signedIn?: boolean } | null)?.signedIn) return <Navigate to="/dashboard/reseau" replace />;

  return (
    <>
      <title>{`Tableau de bord · ${PRODUCT_NAME}`}</title>
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-white">Tableau de bord</h1>
          <p className="mt-2 text-slate-300">Gérez les émetteurs et les capteurs connectés de vos points de vente.</p>
        </div>
        {/* The one action of the page; the other pages are in the navigation. */}
        {manage && (
          <Link to="/dashboard/installer" className={primaryLinkClass}>
            <PackagePlus className="size-4" aria-hidden="true" />
            Installer un appareil
          </Link>
        )}
      </div>
      <AlertsBanner />
      <WatchList
        sensorPath={(id) => deviceDetailPath('sensor', id)}
        linkState={cameFromHere}
        timeZoneOf={(id) => timeZones.get(id)}
        className="mb-8 rounded-2xl border border-white/10 bg-slate-900/60 p-5 shadow-lg shadow-black/20 backdrop-blur sm:p-6"
      />
      <DeviceDashboard
        key={params.get('site') ?? ''}
        initialSiteId={params.get('site') ?? ''}
        sites={sites.data ?? []}
        siteName={(id) => siteNames.get(id) ?? null}
        alertOf={(id) => worst.get(id) ?? null}
        forecastOf={forecastOf}
        detailLinkState={cameFromHere}
        limitOf={limitOf}
        pauseOf={pauseOf}
      />
    </>
  );
}
