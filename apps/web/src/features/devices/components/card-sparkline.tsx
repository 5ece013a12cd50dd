import type { ReadingBucket } from '@vigie/contract';
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatMeasure, measureLabel } from '@/lib/measure-format';
import { useOwner } from '@/lib/auth';
import { readingsQueryOptions } from '../api/get-readings';

const DAY_MS = 24 * 3600_000;
const BUCKETS = 48;
const WIDTH = 120;
const HEIGHT = 32;

/** True once the element has come near the screen: a chain's cards ask for their curve as they show. */
function useNearScreen<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

/**
 * The points of a 24 h line in a WIDTH × HEIGHT box, the limits inside the range: one path per run
 * of buckets, broken where the sensor was silent for more than two buckets.
 */
export function sparklinePaths(readings: ReadingBucket[], from: number, limits: readonly number[]): { paths: string[]; limitYs: number[] } {
  const values = readings.map((bucket) => bucket.avg);
  const all = [...values, ...limits];
  // A steady line sits in the middle of its box.
  const low = Math.min(...all) - (Math.min(...all) === Math.max(...all) ? 1 : 0);
  const high = Math.max(...all) + (Math.min(...all) === Math.max(...all) ? 1 : 0);
  const span = high - low;
  const y = (value: number) => Math.round((HEIGHT - 2 - ((value - low) / span) * (HEIGHT - 4)) * 10) / 10;
  const x = (ts: number) => Math.round(((ts - from) / DAY_MS) * WIDTH * 10) / 10;
  const paths: string[] = [];
  let current: string[] = [];
  let previous: number | null = null;
  for (const bucket of readings) {
    const ts = Date.parse(bucket.ts);
    if (previous !== null && ts - previous > (2 * DAY_MS) / BUCKETS) {
      paths.push(current.join(' '));
      current = [];
    }
    current.push(`${current.length === 0 ? 'M' : 'L'}${x(ts)},${y(bucket.avg)}`);
    previous = ts;
  }
  if (current.length > 0) paths.push(current.join(' '));
  return { paths, limitYs: limits.map(y) };
}

type CardSparklineProps = { sensorId: string; measure: string; limits: readonly number[]; inAlert: boolean };

/** The last 24 hours of a sensor's main measure, with its limit dashed, named in words for a screen reader. */
export function CardSparkline({ sensorId, measure, limits, inAlert }: CardSparklineProps) {
  const owner = useOwner();
  const [ref, near] = useNearScreen<HTMLDivElement>();
  const readings = useQuery({
    ...readingsQueryOptions({
      kind: 'sensor',
      id: sensorId,
      owner,
      range: { name: 'carte-24h', ms: DAY_MS },
      key: measure,
      buckets: BUCKETS,
    }),
    enabled: Boolean(owner) && near,
    staleTime: 5 * 60_000,
  });
  const buckets = readings.data?.readings ?? [];
  const from = readings.data ? Date.parse(readings.data.from) : 0;

  return (
    <div ref={ref} className="mt-2 h-8">
      {buckets.length >= 2 && <Sparkline buckets={buckets} from={from} measure={measure} limits={limits} inAlert={inAlert} />}
    </div>
  );
}

function Sparkline({
  buckets,
  from,
  measure,
  limits,
  inAlert,
}: {
  buckets: ReadingBucket[];
  from: number;
  measure: string;
  limits: readonly number[];
  inAlert: boolean;
}) {
  const { paths, limitYs } = sparklinePaths(buckets, from, limits);
  const low = Math.min(...buckets.map((bucket) => bucket.min));
  const high = Math.max(...buckets.map((bucket) => bucket.max));
  const label = `${measureLabel(measure)} sur 24\u202Fh\u202F: de ${formatMeasure(measure, low)} à ${formatMeasure(measure, high)}`;
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="device-sparkline"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      className="h-8 w-full overflow-visible"
    >
      <title>{label}</title>
      {limitYs.map((limitY) => (
        <line
          key={limitY}
          x1="0"
          x2={WIDTH}
          y1={limitY}
          y2={limitY}
          className="stroke-red-400/70"
          strokeWidth="1"
          strokeDasharray="3 3"
          vectorEffect="non-scaling-stroke"
        />
      ))}
      {paths.map((path) => (
        <path
          key={path}
          d={path}
          fill="none"
          className={inAlert ? 'stroke-red-400' : 'stroke-cyan-400'}
          strokeWidth="1.5"
          strokeLinejoin="round"
          vectorEffect="non-scaling-stroke"
        />
      ))}
    </svg>
  );
}
