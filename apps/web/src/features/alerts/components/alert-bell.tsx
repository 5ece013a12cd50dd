import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { useActiveAlerts } from '../api/get-alerts';
import { needsAction } from '../alert-keys';
import { alertCount } from '../alert-format';

/** The header's bell: how many alerts wait for someone to act (open, not yet acknowledged). */
export function AlertBell() {
  const { data } = useActiveAlerts();
  const count = data?.filter(needsAction).length ?? 0;
  const label = count > 0 ? `Alertes : ${alertCount(count, 'à traiter')}` : 'Alertes : aucune à traiter';
  return (
    <Link
      to="/dashboard/alertes"
      aria-label={label}
      title={label}
      className={`relative grid size-10 shrink-0 place-items-center rounded-xl border transition-colors ${
        count > 0 ? 'border-red-400/60 bg-red-500/15 text-red-100 hover:bg-red-500/25' : 'border-white/10 text-slate-300 hover:bg-white/5'
      }`}
    >
      <Bell className="size-5" aria-hidden="true" />
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="alert-bell-count"
          className="absolute -right-1.5 -top-1.5 grid min-w-5 place-items-center rounded-full bg-red-500 px-1 text-xs font-bold text-white"
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
