import type { Alert, Severity } from '@vigie/contract';
import { SEVERITY_LABELS, STATUS_LABELS } from '../alert-format';

const SEVERITY_CLASSES: Record<Severity, string> = {
  critical: 'border-red-400/50 bg-red-500/15 text-red-100',
  warning: 'border-amber-300/50 bg-amber-400/15 text-amber-100',
};
const STATUS_CLASSES: Record<Alert['status'], string> = {
  open: 'border-red-400/50 bg-red-500/20 text-red-50',
  acknowledged: 'border-amber-300/40 bg-amber-400/10 text-amber-100',
  resolved: 'border-emerald-300/40 bg-emerald-400/10 text-emerald-100',
};

const pill = 'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold';

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <span className={`${pill} ${SEVERITY_CLASSES[severity]}`}>{SEVERITY_LABELS[severity]}</span>;
}

export function AlertStatusBadge({ status }: { status: Alert['status'] }) {
  return <span className={`${pill} ${STATUS_CLASSES[status]}`}>{STATUS_LABELS[status]}</span>;
}

/** « Dépassement prévu »: the alert is about a forecast, in the forecast's violet. */
export function PredictedBadge() {
  return <span className={`${pill} border-violet-300/50 bg-violet-400/15 text-violet-100`}>Dépassement prévu</span>;
}
