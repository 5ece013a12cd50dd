import { AlertTriangle, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { useActiveAlerts } from '../api/get-alerts';
import { activeAlertsText } from '../alert-format';
import { isPredicted } from './alert-value';

/** On the dashboard: « 2 alertes en cours » (forecasts named as such), unmissable, leading to the alerts page. */
export function AlertsBanner() {
  const { data } = useActiveAlerts();
  const count = data?.length ?? 0;
  const predicted = data?.filter(isPredicted).length ?? 0;
  if (count === 0) return null;
  return (
    <div role="status" className="mb-6">
      <Link
        to="/dashboard/alertes"
        className=" flex items-center gap-3 rounded-2xl border border-red-400/50 bg-red-500/15 p-4 text-red-50 shadow-lg shadow-red-950/30 transition-colors hover:bg-red-500/25"
      >
        <AlertTriangle className="size-6 shrink-0 text-red-300" aria-hidden="true" />
        <span className="flex-1 font-semibold">{activeAlertsText(count, predicted)}</span>
        <span className="text-sm text-red-100/90">Voir les alertes</span>
        <ChevronRight className="size-4" aria-hidden="true" />
      </Link>
    </div>
  );
}
