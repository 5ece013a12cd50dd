import type { DeviceStatus } from '@vigie/contract';
import { STATUS_LABELS } from '../device-status';

const DOT: Record<DeviceStatus, string> = {
  online: 'bg-emerald-400 shadow-[0_0_0_3px_rgb(52_211_153/0.2)]',
  offline: 'bg-red-400',
  never: 'border border-slate-400 bg-transparent',
};

const TEXT: Record<DeviceStatus, string> = {
  online: 'text-emerald-300',
  offline: 'text-red-300',
  never: 'text-slate-300',
};

/** A coloured dot with its text: the status never depends on colour alone. */
export function DeviceStatusBadge({ status, className = '' }: { status: DeviceStatus; className?: string }) {
  return (
    <span data-status={status} className={`inline-flex items-center gap-1.5 text-xs font-medium ${TEXT[status]} ${className}`}>
      <span aria-hidden="true" className={`inline-block size-2 shrink-0 rounded-full ${DOT[status]}`} />
      {STATUS_LABELS[status]}
    </span>
  );
}
