import type { Device } from '../device-kinds';
import { SignalLow } from 'lucide-react';
import { formatAge, formatDateTime, formatMeasure, mainMeasureKey, measureLabel, secondaryMeasureKey } from '@/lib/measure-format';
import { useDeviceStatus } from '../use-device-status';
import { WEAK_SIGNAL_DBM } from '../device-status';
import { BatteryLevel } from './battery-level';
import { DeviceStatusBadge } from './device-status-badge';

/** Status, main latest value with its age, and battery: what a card shows of a live device. */
export function DeviceLiveSummary({ device, inAlert = false }: { device: Device; inAlert?: boolean }) {
  const { status, now } = useDeviceStatus(device);
  const key = mainMeasureKey(device.latest ?? {});
  const latest = key ? device.latest[key] : undefined;
  const second = secondaryMeasureKey(device.latest ?? {}, key);
  const secondValue = second ? device.latest[second] : undefined;
  const signal = device.latest?.rssi?.value;

  return (
    <div className="mt-3 space-y-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <DeviceStatusBadge status={status} />
        {device.battery !== null && device.battery !== undefined && <BatteryLevel percent={device.battery} />}
        {/* Only a weak signal is worth a word on a card; its level is on the device's page. */}
        {key !== 'rssi' && signal !== undefined && signal <= WEAK_SIGNAL_DBM && (
          <span
            data-weak-signal
            className="inline-flex items-center gap-1 rounded-md bg-amber-400/15 px-1.5 py-0.5 text-xs font-medium tabular-nums text-amber-200"
          >
            <SignalLow className="size-4" aria-hidden="true" />
            {`Signal faible\u202F: ${formatMeasure('rssi', signal)}`}
          </span>
        )}
      </div>
      {key && latest && (
        <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <span className="sr-only">{`${measureLabel(key)}\u202F: `}</span>
          <span data-testid="device-main-value" className={`text-lg font-semibold tabular-nums ${inAlert ? 'text-red-300' : 'text-white'}`}>
            {formatMeasure(key, latest.value)}
          </span>
          {second && secondValue && (
            <span data-testid="device-second-value" className="tabular-nums text-slate-300">
              {/* The dot only separates the two values on screen; read aloud, the measure's name does. */}
              <span aria-hidden="true">· </span>
              <span className="sr-only">{`${measureLabel(second)}\u202F: `}</span>
              {formatMeasure(second, secondValue.value)}
            </span>
          )}
          <time dateTime={latest.ts} title={formatDateTime(latest.ts)} className="text-xs text-slate-400">
            {formatAge(latest.ts, now)}
          </time>
        </p>
      )}
    </div>
  );
}
