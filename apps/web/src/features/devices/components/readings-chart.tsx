import { useQueryClient } from '@tanstack/react-query';
import type { ReadingBucket, ReadingsResponse } from '@vigie/contract';
import { lazy, Suspense, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { onLiveReading } from '../apply-live-event';
import { useNow } from '@/hooks/use-now';
import { useOwner } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { readingsQueryOptions, useReadings } from '../api/get-readings';
import type { DeviceKind } from '../device-kinds';
import { formatMeasure, measureDigits, measureLabel, measureUnit } from '@/lib/measure-format';
import { inputClass } from '@/components/ui/section';
import { mergeLiveValue } from './merge-live-value';
import { ChartLegend } from './chart-legend';
import type { ChartForecastPoint } from './chart-data';
import { pausesInView, type ChartPause } from './chart-pauses';
import type { ChartOverlays } from './uplot-chart';
import { LOAD_ERROR } from '@/lib/fallback-text';
import { FieldLabel } from '@/components/ui/field-label';

// uPlot and its styles load with the detail page's chart only, never with the dashboard.
const UplotChart = lazy(() => import('./uplot-chart'));

export const RANGES = [
  { name: '1 h', label: '1\u00A0h', ms: 3600_000 },
  { name: '24 h', label: '24\u00A0h', ms: 24 * 3600_000 },
  { name: '7 j', label: '7\u00A0j', ms: 7 * 24 * 3600_000 },
  { name: '30 j', label: '30\u00A0j', ms: 30 * 24 * 3600_000 },
] as const;

const HEIGHT = 280;

/** About one bucket per two pixels of width, in steps of 50, never more than the server's 2 000. */
export function bucketsFor(width: number): number {
  return Math.min(2000, Math.max(50, Math.round(width / 2 / 50) * 50));
}

/**
 * Limits of the device's rules per measure, and its alert periods (ISO; `to` null while active);
 * the predictive analysis of one measure: its forecast, anomalies and recognised defrost cycles;
 * the pauses for planned work that held the sensor, named on the shop's clock (`timeZone`).
 */
export type ChartAnnotations = {
  limits: { key: string; values: number[] }[];
  periods: { key: string | null; from: string; to: string | null }[];
  forecast?: { key: string; points: { ts: string; value: number; low: number; high: number }[] };
  spans?: { key: string; kind: 'anomaly' | 'defrost'; from: string; to: string }[];
  pauses?: ChartPause[];
  timeZone?: string | undefined;
};

/** The forecast covers four hours; on the hour view, only the next hour of it, so that history keeps its room. */
const FORECAST_MS = 4 * 3600_000;

type ReadingsChartProps = { kind: DeviceKind; deviceId: string; keys: string[]; annotations?: ChartAnnotations };

export function ReadingsChart({ kind, deviceId, keys, annotations }: ReadingsChartProps) {
  const owner = useOwner();
  const [rangeIndex, setRangeIndex] = useState(1);
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const [width, setWidth] = useState(800);
  const box = useRef<HTMLDivElement>(null);
  const selectId = useId();
  const queryClient = useQueryClient();
  const range = RANGES[rangeIndex] ?? RANGES[1];
  const buckets = bucketsFor(width);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const query = useReadings({ kind, id: deviceId, owner, range, key: chosenKey, buckets });
  const key = chosenKey ?? query.data?.key ?? null;
  const allKeys = query.data?.keys.length ? query.data.keys : keys;
  const queryKey = readingsQueryOptions({ kind, id: deviceId, owner, range, key: chosenKey, buckets }).queryKey;

  // Live: each new value of the shown measure goes into the last bucket or opens a new one.
  const liveKey = useRef({ queryKey, key, bucketMs: range.ms / buckets, rangeMs: range.ms });
  useEffect(() => {
    liveKey.current = { queryKey, key, bucketMs: range.ms / buckets, rangeMs: range.ms };
  });
  useEffect(
    () =>
      onLiveReading((reading) => {
        const current = liveKey.current;
        if (reading.deviceId !== deviceId || !current.key) return;
        const value = reading.values[current.key];
        if (!value) return;
        queryClient.setQueryData<ReadingsResponse>(current.queryKey, (data) =>
          data ? { ...data, readings: mergeLiveValue(data.readings, value, current.bucketMs, current.rangeMs) } : data,
        );
      }),
    [deviceId, queryClient],
  );

  const readings: ReadingBucket[] = query.data?.readings ?? [];
  // An alert still running is shaded up to now, refreshed every 30 s.
  const now = useNow(30_000);
  // The pauses of the shown period, whatever the measure: shaded on the chart and named under it.
  const pauses = useMemo(
    () => pausesInView(annotations?.pauses ?? [], now, range.ms, annotations?.timeZone),
    [annotations?.pauses, annotations?.timeZone, now, range.ms],
  );
  const overlays = useMemo<ChartOverlays | undefined>(() => {
    if (!annotations || !key) return undefined;
    const spans = (spanKind: 'anomaly' | 'defrost') =>
      (annotations.spans ?? [])
        .filter((span) => span.kind === spanKind && span.key === key)
        .map((span) => ({ from: Date.parse(span.from), to: Date.parse(span.to) }));
    return {
      limits: annotations.limits.filter((limit) => limit.key === key).flatMap((limit) => limit.values),
      periods: annotations.periods
        .filter((period) => period.key === key || period.key === null)
        .map((period) => ({ from: Date.parse(period.from), to: period.to ? Date.parse(period.to) : now })),
      anomalies: spans('anomaly'),
      defrosts: spans('defrost'),
      pauses,
    };
  }, [annotations, key, now, pauses]);
  const forecastPoints = annotations?.forecast?.key === key ? annotations.forecast.points : undefined;
  const forecast = useMemo<ChartForecastPoint[] | undefined>(() => {
    if (!forecastPoints || forecastPoints.length === 0) return undefined;
    const first = Date.parse(forecastPoints[0]?.ts ?? '');
    const until = first + Math.min(range.ms, FORECAST_MS);
    return forecastPoints
      .map((point) => ({ ts: Date.parse(point.ts), value: point.value, low: point.low, high: point.high }))
      .filter((point) => point.ts <= until);
  }, [forecastPoints, range.ms]);
  // The legend names only what the shown period has.
  const inView = (spans: { to: number }[] | undefined) => (spans ?? []).some((span) => span.to >= now - range.ms);
  const unit = key ? measureUnit(key) : undefined;
  const summary = summarize(readings, key);
  // The time axis spans the chosen period (the last 24 h…) whatever the readings: a new sensor's one reading does not stretch it.
  const period = useMemo(() => ({ from: now - range.ms, to: now }), [now, range.ms]);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div role="group" aria-label="Période" className="inline-flex rounded-xl border border-white/10 bg-slate-950/60 p-1">
          {RANGES.map((option, index) => (
            <button
              key={option.name}
              type="button"
              aria-pressed={index === rangeIndex}
              onClick={() => setRangeIndex(index)}
              className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-300 transition-colors hover:text-white aria-pressed:bg-cyan-400 aria-pressed:text-slate-950"
            >
              {option.label}
            </button>
          ))}
        </div>
        {allKeys.length > 1 && (
          <div>
            <FieldLabel htmlFor={selectId}>Mesure</FieldLabel>
            <select
              id={selectId}
              value={key ?? ''}
              onChange={(event) => setChosenKey(event.target.value)}
              className={`${inputClass} mt-1 w-auto`}
            >
              {allKeys.map((option) => (
                <option key={option} value={option}>
                  {measureLabel(option)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>

      <figure
        aria-label={`Historique ${key ? measureLabel(key).toLowerCase() : ''} sur ${range.name}`}
        aria-busy={query.isFetching || undefined}
      >
        <div ref={box} className="relative min-h-[280px]">
          {query.isError ? (
            <p role="alert" className="text-sm text-red-200">
              {errorMessage(query.error, LOAD_ERROR)}
            </p>
          ) : (
            <Suspense fallback={<div className="h-[280px] animate-pulse rounded-xl bg-white/5 motion-reduce:animate-none" />}>
              <UplotChart
                readings={readings}
                unit={unit}
                digits={key ? measureDigits(key) : 2}
                height={HEIGHT}
                // A silence of more than three buckets (or 15 min) is a gap in the record, not a line.
                gapMs={Math.max((range.ms / buckets) * 3, 15 * 60_000)}
                {...(overlays ? { overlays } : {})}
                {...(forecast ? { forecast } : {})}
                period={period}
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
          <p>{summary}</p>
          <ChartLegend
            forecast={Boolean(forecast)}
            limits={(overlays?.limits.length ?? 0) > 0}
            alerts={inView(overlays?.periods)}
            anomalies={inView(overlays?.anomalies)}
            defrosts={inView(overlays?.defrosts)}
            pauses={pauses.length > 0}
          />
          {pauses.length > 0 && (
            <ul aria-label="Pauses sur la période" data-testid="chart-pauses" className="space-y-1 break-words">
              {pauses.map((pause, index) => (
                <li key={`${pause.from}-${index}`}>{pause.label}</li>
              ))}
            </ul>
          )}
        </figcaption>
      </figure>
    </div>
  );
}

function summarize(readings: ReadingBucket[], key: string | null): string {
  if (!key || readings.length === 0) return 'Bande claire\u202F: minimum et maximum de chaque intervalle\u202F; ligne\u202F: moyenne.';
  let min = Infinity;
  let max = -Infinity;
  let count = 0;
  for (const bucket of readings) {
    min = Math.min(min, bucket.min);
    max = Math.max(max, bucket.max);
    count += bucket.count;
  }
  return `${measureLabel(key)} de ${formatMeasure(key, min)} à ${formatMeasure(key, max)} sur ${count.toLocaleString('fr-FR')}\u00A0${count < 2 ? 'mesure' : 'mesures'}. Bande\u202F: minimum et maximum\u202F; ligne\u202F: moyenne.`;
}
