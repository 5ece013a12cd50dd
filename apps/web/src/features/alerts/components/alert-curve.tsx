import type { Alert, ReadingBucket, Rule } from '@vigie/contract';
import { Suspense, useId, type ComponentType } from 'react';
import { DetailSection } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { measureDigits, measureLabel, measureUnit } from '@/lib/measure-format';
import { CURVE_BUCKETS, useAlertReadings } from '../api/get-alert-readings';
import { curveLimits, curveText, findPeak, limitWords, peakDirection, peakLabel, signedValue } from '../alert-curve-data';

/** A stretch of the curve (epoch ms). */
export type CurveSpan = { from: number; to: number };

/**
 * What the alert's curve hands its chart: the readings in intervals (min, average, max), the limits
 * drawn as lines, the alert's period shaded, and the interval of its peak to mark. The sensor page's
 * chart draws it; app/ composes it (a feature does not import another).
 */
export type AlertChartProps = {
  readings: ReadingBucket[];
  unit?: string;
  digits: number;
  height: number;
  gapMs: number;
  overlays: { limits: number[]; periods: CurveSpan[] };
  peak: CurveSpan | null;
};

const HEIGHT = 260;

function Swatch({ kind }: { kind: 'limit' | 'period' | 'peak' }) {
  const common = { width: 28, height: 14, viewBox: '0 0 28 14', 'aria-hidden': true, className: 'shrink-0' } as const;
  if (kind === 'limit')
    return (
      <svg {...common}>
        <line x1="0" y1="7" x2="28" y2="7" className="stroke-red-400/90" strokeWidth="2" strokeDasharray="5 3" />
      </svg>
    );
  if (kind === 'period')
    return (
      <svg {...common}>
        <rect x="0" y="0" width="28" height="14" className="fill-red-400/35" />
      </svg>
    );
  return (
    <svg {...common}>
      <rect x="12" y="0" width="4" height="14" className="fill-amber-400/35" />
      <rect x="10" y="0" width="8" height="3" className="fill-amber-400" />
    </svg>
  );
}

/**
 * The sensor's readings around an alert: from a margin before it opened to a margin after it was
 * resolved (up to now while it runs), with the limit, the alert's period and its peak; a sentence
 * says what it shows, for those who do not see it.
 */
export function AlertCurve({
  alert,
  measureKey: key,
  rule,
  now,
  timeZone,
  chart: Chart,
}: {
  alert: Alert;
  /** The alert's measure (an offline alert has none, and no curve). */
  measureKey: string;
  rule: Rule | null | undefined;
  now: number;
  timeZone?: string | undefined;
  chart: ComponentType<AlertChartProps>;
}) {
  const { query, window } = useAlertReadings({ alert, now });
  const captionId = useId();
  const titleId = useId();
  const readings = query.data?.readings ?? [];
  const bucketMs = (window.to - window.from) / CURVE_BUCKETS;
  const condition = rule?.condition ?? null;
  const limits = condition ? curveLimits(condition) : [];
  const limit = condition ? limitWords(condition) : null;
  const direction = peakDirection(alert, condition);
  const peak = findPeak(readings, alert, bucketMs, now);
  const unit = measureUnit(key);
  const text = query.isSuccess
    ? curveText({ key, from: window.from, to: window.shownTo, readings, peak, direction, limit, timeZone })
    : null;

  return (
    <DetailSection id={titleId} title="Courbe" description="Les mesures du capteur avant, pendant et après l’alerte.">
      <figure aria-labelledby={captionId} aria-busy={query.isFetching || undefined} className="min-w-0">
        {/* The chart's vertical axis shows numbers only: its unit is said above it. */}
        <p className="mb-1 text-xs font-medium text-slate-400" aria-hidden="true">
          {unit ? `${measureLabel(key)} (${unit})` : measureLabel(key)}
        </p>
        <div className="relative min-h-[260px] min-w-0">
          {query.isError ? (
            <p role="alert" className="text-sm text-red-200">
              {errorMessage(query.error, 'La courbe n’a pas pu être chargée.')}
            </p>
          ) : (
            <Suspense fallback={<div className="h-[260px] animate-pulse rounded-xl bg-white/5 motion-reduce:animate-none" />}>
              <Chart
                readings={readings}
                {...(unit ? { unit } : {})}
                digits={measureDigits(key)}
                height={HEIGHT}
                // A silence of more than three intervals (or 15 min) is a gap in the record, not a line.
                gapMs={Math.max(bucketMs * 3, 15 * 60_000)}
                overlays={{
                  limits,
                  periods: [{ from: Date.parse(alert.openedAt), to: alert.resolvedAt ? Date.parse(alert.resolvedAt) : now }],
                }}
                peak={peak ? { from: peak.ts, to: peak.ts + bucketMs } : null}
              />
            </Suspense>
          )}
          {query.isSuccess && readings.length === 0 && (
            <p className="pointer-events-none absolute inset-0 grid place-items-center text-sm text-slate-300">
              Aucune mesure sur cette période.
            </p>
          )}
        </div>
        <figcaption className="mt-2 space-y-2 text-sm text-slate-300">
          <p id={captionId} data-testid="alert-curve-text">
            {text ?? (query.isError ? 'Courbe indisponible.' : 'Chargement de la courbe…')}
          </p>
          <ul aria-label="Légende" className="flex flex-wrap gap-x-4 gap-y-1.5">
            {limit && (
              <li className="flex items-center gap-2">
                <Swatch kind="limit" />
                {`Limite autorisée (${limit})`}
              </li>
            )}
            <li className="flex items-center gap-2">
              <Swatch kind="period" />
              {alert.resolvedAt ? 'Durée de l’alerte' : 'Alerte en cours'}
            </li>
            {peak && (
              <li className="flex items-center gap-2">
                <Swatch kind="peak" />
                {`${peakLabel(direction)} (${signedValue(key, peak.value)})`}
              </li>
            )}
          </ul>
        </figcaption>
      </figure>
    </DetailSection>
  );
}
