type ChartLegendProps = { forecast: boolean; limits: boolean; alerts: boolean; anomalies: boolean; defrosts: boolean; pauses: boolean };

/** Small drawings of what the chart paints beyond the readings, each with its name. */
function Swatch({ kind }: { kind: keyof ChartLegendProps }) {
  const common = { width: 28, height: 14, viewBox: '0 0 28 14', 'aria-hidden': true, className: 'shrink-0' } as const;
  switch (kind) {
    case 'forecast':
      return (
        <svg {...common}>
          <rect x="0" y="2" width="28" height="10" className="fill-violet-400/30" />
          <line x1="0" y1="7" x2="28" y2="7" className="stroke-violet-300" strokeWidth="2" strokeDasharray="5 3" />
        </svg>
      );
    case 'limits':
      return (
        <svg {...common}>
          <line x1="0" y1="7" x2="28" y2="7" className="stroke-red-400/90" strokeWidth="2" strokeDasharray="5 3" />
        </svg>
      );
    case 'alerts':
      return (
        <svg {...common}>
          <rect x="0" y="0" width="28" height="14" className="fill-red-400/35" />
        </svg>
      );
    case 'anomalies':
      return (
        <svg {...common}>
          <rect x="0" y="0" width="28" height="14" className="fill-amber-400/25" />
          <rect x="0" y="0" width="28" height="3" className="fill-amber-400" />
        </svg>
      );
    case 'defrosts':
      return (
        <svg {...common}>
          <rect x="0" y="0" width="28" height="14" className="fill-sky-400/20" />
          <path d="M-4 14 L10 0 M4 14 L18 0 M12 14 L26 0 M20 14 L34 0" className="stroke-sky-300/70" strokeWidth="1" />
        </svg>
      );
    case 'pauses':
      return (
        <svg {...common}>
          <rect x="0" y="0" width="28" height="14" className="fill-slate-400/25" />
          <path d="M0.5 0 V14 M27.5 0 V14" className="stroke-slate-300" strokeWidth="1" strokeDasharray="2 2" />
          <rect x="3" y="3" width="2" height="6" className="fill-slate-300" />
          <rect x="7" y="3" width="2" height="6" className="fill-slate-300" />
        </svg>
      );
  }
}

const LABELS: Record<keyof ChartLegendProps, string> = {
  forecast: 'Prévision (pointillés) et son intervalle à 80\u202F%',
  limits: 'Seuil d’alerte',
  alerts: 'Alerte',
  anomalies: 'Anomalie',
  defrosts: 'Dégivrage',
  pauses: 'Pause (notifications en attente)',
};

/** The chart's legend for its forecast and shadings; nothing when the chart has none. */
export function ChartLegend(props: ChartLegendProps) {
  const shown = (Object.keys(LABELS) as (keyof ChartLegendProps)[]).filter((kind) => props[kind]);
  if (shown.length === 0) return null;
  return (
    <ul aria-label="Légende" data-testid="chart-legend" className="flex flex-wrap gap-x-4 gap-y-1.5">
      {shown.map((kind) => (
        <li key={kind} className="flex items-center gap-2">
          <Swatch kind={kind} />
          {LABELS[kind]}
        </li>
      ))}
    </ul>
  );
}
