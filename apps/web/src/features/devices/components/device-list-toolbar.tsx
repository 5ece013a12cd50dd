import { Search } from 'lucide-react';
import { useId } from 'react';
import { formatNumber } from '@/lib/measure-format';
import { type DeviceOrder, type ListView, ORDER_LABELS, STATUS_FILTER_LABELS, type StatusFilter } from '../device-list-view';

/** From this many devices in a list, it can be searched, filtered and sorted. */
export const TOOLBAR_FROM = 13;

const fieldClass =
  'rounded-xl border border-white/15 bg-slate-950/70 px-3 py-2 text-sm text-white placeholder:text-slate-400 focus:border-cyan-300/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-cyan-300/40';

type DeviceListToolbarProps = {
  view: ListView;
  onChange: (view: ListView) => void;
  shown: number;
  total: number;
  /** « capteur », « émetteur »: the count says what it counts. */
  noun: { one: string; many: string };
};

/** Search by name or serial, a filter by state and an order, over a long list; says how many match. */
export function DeviceListToolbar({ view, onChange, shown, total, noun }: DeviceListToolbarProps) {
  const id = useId();
  const filtered = view.query.trim() !== '' || view.status !== 'all';
  return (
    <div className="mb-5 space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <label htmlFor={`${id}-q`} className="text-sm font-medium text-slate-200">
            Rechercher
          </label>
          <div className="relative">
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
            <input
              id={`${id}-q`}
              type="search"
              value={view.query}
              onChange={(event) => onChange({ ...view, query: event.target.value })}
              placeholder="Nom ou numéro de série"
              autoComplete="off"
              spellCheck={false}
              className={`${fieldClass} w-full pl-9`}
            />
          </div>
        </div>
        <div className="grid gap-3 min-[420px]:grid-cols-2 sm:flex">
          <div className="flex min-w-0 flex-1 flex-col gap-1.5 sm:w-52 sm:flex-none">
            <label htmlFor={`${id}-status`} className="text-sm font-medium text-slate-200">
              État
            </label>
            <select
              id={`${id}-status`}
              value={view.status}
              onChange={(event) => onChange({ ...view, status: event.target.value as StatusFilter })}
              className={fieldClass}
            >
              {Object.entries(STATUS_FILTER_LABELS).map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </div>
          <div className="flex min-w-0 flex-1 flex-col gap-1.5 sm:w-52 sm:flex-none">
            <label htmlFor={`${id}-order`} className="text-sm font-medium text-slate-200">
              Trier par
            </label>
            <select
              id={`${id}-order`}
              value={view.order}
              onChange={(event) => onChange({ ...view, order: event.target.value as DeviceOrder })}
              className={fieldClass}
            >
              {Object.entries(ORDER_LABELS).map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      <p role="status" className="text-sm text-slate-300">
        {filtered
          ? `${formatNumber(shown)} ${shown > 1 ? noun.many : noun.one} sur ${formatNumber(total)}`
          : `${formatNumber(total)} ${total > 1 ? noun.many : noun.one}`}
      </p>
    </div>
  );
}
