import { Battery, BatteryLow, BatteryMedium, BatteryFull } from 'lucide-react';
import { LOW_BATTERY_PERCENT } from '../device-status';
import { formatMeasure } from '@/lib/measure-format';

/** Battery icon and percentage; a low battery stands out in amber and says so. */
export function BatteryLevel({ percent }: { percent: number }) {
  const low = percent <= LOW_BATTERY_PERCENT;
  const Icon = low ? BatteryLow : percent < 60 ? BatteryMedium : percent >= 90 ? BatteryFull : Battery;
  return (
    <span
      data-low-battery={low || undefined}
      title={low ? 'Batterie faible' : 'Batterie'}
      className={`inline-flex items-center gap-1 text-xs font-medium tabular-nums ${
        low ? 'rounded-md bg-amber-400/15 px-1.5 py-0.5 text-amber-200' : 'text-slate-300'
      }`}
    >
      <Icon className="size-4" aria-hidden="true" />
      <span className="sr-only">{low ? 'Batterie faible\u202F: ' : 'Batterie\u202F: '}</span>
      {formatMeasure('battery', percent)}
    </span>
  );
}
