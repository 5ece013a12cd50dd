import type { ReportUnitSummary } from '@vigie/contract';
import type { ReportChartPoint, ReportContent, ReportDay, ReportExcursion, ReportGap, ReportUnit } from './report-content.ts';
import { startOfDay } from './report-format.ts';

/**
 * A hand-built report for tests: October 2026 in Paris (31 days, and the change to winter time on
 * the 25th), a freezer held to −25/−18 °C with excursions, corrective actions and a gap, a display
 * case held to ≤ +4 °C with an excursion still running at the end, and a cold room without limits.
 */

export const FIXTURE_TIMEZONE = 'Europe/Paris';
export const FIXTURE_REPORT_ID = '3f2b9c1e-7a4d-4e8b-9c2a-5d6e7f8a9b0c';
const FROM = '2026-09-30T22:00:00.000Z';
const TO = '2026-10-31T23:00:00.000Z';
const READING_INTERVAL_S = 300;
const BUCKET_MS = 2 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

interface UnitSpec {
  sensorId: string;
  name: string;
  serial: string | null;
  model: string | null;
  min: number | null;
  max: number | null;
  limitSources: ReportUnit['limitSources'];
  /** The usual temperature, and how far it swings over a day. */
  base: number;
  swing: number;
  excursions: ReportExcursion[];
  /** Short rises the rules tolerate (shorter than `toleranceSeconds`): out of limits, counted, not listed. */
  briefs: Array<{ start: string; seconds: number; peak: number }>;
  toleranceSeconds: number;
  gaps: ReportGap[];
  otherAlerts?: ReportUnit['otherAlerts'];
  battery: ReportUnit['battery'];
  openItems: number;
}

function overlap(from: number, to: number, start: number, end: number): number {
  return Math.max(0, Math.min(to, end) - Math.max(from, start));
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function excursionEnd(excursion: ReportExcursion): number {
  return Date.parse(excursion.end ?? TO);
}

/** The unit's usual temperature at `t`, a daily swing; excursions add their peak to the chart point they touch. */
function valueAt(spec: UnitSpec, t: number): number {
  return round1(spec.base + spec.swing * Math.sin((2 * Math.PI * (t - Date.parse(FROM))) / DAY_MS));
}

function inGap(spec: UnitSpec, from: number, to: number): boolean {
  return spec.gaps.some((gap) => from >= Date.parse(gap.from) && to <= Date.parse(gap.to));
}

function buildChart(spec: UnitSpec): ReportChartPoint[] {
  const points: ReportChartPoint[] = [];
  for (let t = Date.parse(FROM); t < Date.parse(TO); t += BUCKET_MS) {
    const end = Math.min(t + BUCKET_MS, Date.parse(TO));
    const point = { from: new Date(t).toISOString(), to: new Date(end).toISOString() };
    if (inGap(spec, t, end)) {
      points.push({ ...point, min: null, max: null });
      continue;
    }
    const values = [t, t + BUCKET_MS / 2, end - 1].map((at) => valueAt(spec, at));
    const peaks = [
      ...spec.excursions.filter((e) => overlap(t, end, Date.parse(e.start), excursionEnd(e)) > 0).map((e) => e.peak),
      ...spec.briefs.filter((b) => overlap(t, end, Date.parse(b.start), Date.parse(b.start) + b.seconds * 1000) > 0).map((b) => b.peak),
    ];
    const low = Math.min(...values) - 0.3;
    const high = Math.max(...values) + 0.3;
    points.push({ ...point, min: Math.min(low, ...peaks), max: Math.max(high, ...peaks) });
  }
  return points.map((p) => ({ ...p, min: p.min === null ? null : round1(p.min), max: p.max === null ? null : round1(p.max) }));
}

function calendarDays(): string[] {
  const days: string[] = [];
  for (let date = 1; date <= 31; date++) days.push(`2026-10-${String(date).padStart(2, '0')}`);
  return days;
}

function buildDays(spec: UnitSpec, chart: ReportChartPoint[]): ReportDay[] {
  const days = calendarDays();
  return days.map((date, index) => {
    const from = startOfDay(date, FIXTURE_TIMEZONE);
    const to = index + 1 < days.length ? startOfDay(days[index + 1] ?? date, FIXTURE_TIMEZONE) : Date.parse(TO);
    const noDataMs = spec.gaps.reduce((sum, gap) => sum + overlap(from, to, Date.parse(gap.from), Date.parse(gap.to)), 0);
    const outMs =
      spec.excursions.reduce((sum, e) => sum + overlap(from, to, Date.parse(e.start), excursionEnd(e)), 0) +
      spec.briefs.reduce((sum, b) => sum + overlap(from, to, Date.parse(b.start), Date.parse(b.start) + b.seconds * 1000), 0);
    const points = chart.filter((p) => Date.parse(p.from) >= from && Date.parse(p.from) < to && p.min !== null && p.max !== null);
    const mins = points.map((p) => p.min ?? 0);
    const maxs = points.map((p) => p.max ?? 0);
    const mean = points.length ? round1(points.reduce((sum, p) => sum + ((p.min ?? 0) + (p.max ?? 0)) / 2, 0) / points.length) : null;
    return {
      date,
      min: points.length ? Math.min(...mins) : null,
      mean,
      max: points.length ? Math.max(...maxs) : null,
      readings: Math.round((to - from - noDataMs) / 1000 / READING_INTERVAL_S),
      outOfRangeSeconds: outMs / 1000,
      noDataSeconds: noDataMs / 1000,
    };
  });
}

function buildUnit(spec: UnitSpec): ReportUnit {
  const chart = buildChart(spec);
  const days = buildDays(spec, chart);
  const withData = days.filter((d) => d.min !== null);
  const readingCount = days.reduce((sum, d) => sum + d.readings, 0);
  return {
    sensorId: spec.sensorId,
    name: spec.name,
    serial: spec.serial,
    model: spec.model,
    key: 'temperature',
    unit: '°C',
    min: spec.min,
    max: spec.max,
    limitSources: spec.limitSources,
    inactivityTimeoutSeconds: 1800,
    readingCount,
    minValue: withData.length ? Math.min(...withData.map((d) => d.min ?? 0)) : null,
    meanValue: withData.length ? round1(withData.reduce((sum, d) => sum + (d.mean ?? 0) * d.readings, 0) / readingCount) : null,
    maxValue: withData.length ? Math.max(...withData.map((d) => d.max ?? 0)) : null,
    days,
    chart,
    excursions: spec.excursions,
    briefExcursions: {
      count: spec.briefs.length,
      totalSeconds: spec.briefs.reduce((sum, b) => sum + b.seconds, 0),
      toleranceSeconds: spec.toleranceSeconds,
    },
    gaps: spec.gaps,
    otherAlerts: spec.otherAlerts ?? [],
    battery: spec.battery,
    openItems: spec.openItems,
  };
}

function summarize(unit: ReportUnit): ReportUnitSummary {
  const periodSeconds = (Date.parse(TO) - Date.parse(FROM)) / 1000;
  const noDataSeconds = unit.days.reduce((sum, d) => sum + d.noDataSeconds, 0);
  const outOfRangeSeconds = unit.days.reduce((sum, d) => sum + d.outOfRangeSeconds, 0);
  const hasLimits = unit.min !== null || unit.max !== null;
  const inRangeSeconds = periodSeconds - noDataSeconds - outOfRangeSeconds;
  return {
    sensorId: unit.sensorId,
    name: unit.name,
    min: unit.min,
    max: unit.max,
    compliancePercent: hasLimits ? (inRangeSeconds / periodSeconds) * 100 : null,
    inRangeSeconds,
    outOfRangeSeconds,
    noDataSeconds,
    excursionCount: unit.excursions.length,
    excursionSeconds: unit.excursions.reduce((sum, e) => sum + e.durationSeconds, 0),
    briefExcursionCount: unit.briefExcursions.count,
    briefExcursionSeconds: unit.briefExcursions.totalSeconds,
    openItems: unit.openItems,
  };
}

type Alert = NonNullable<ReportExcursion['alert']>;

function excursion(
  start: string,
  end: string | null,
  peak: number,
  direction: ReportExcursion['direction'],
  alert: Alert | null,
): ReportExcursion {
  return { start, end, durationSeconds: (Date.parse(end ?? TO) - Date.parse(start)) / 1000, peak, direction, alert };
}

function alert(id: string, fields: Partial<Alert> & Pick<Alert, 'openedAt'>): Alert {
  return {
    id,
    severity: 'critical',
    status: 'resolved',
    acknowledgedAt: null,
    acknowledgedBy: null,
    resolvedAt: null,
    resolution: null,
    actions: [],
    ...fields,
  };
}

const FREEZER: UnitSpec = {
  sensorId: '0b6c1a52-3e1f-4d7a-9a40-1c2d3e4f5a61',
  name: 'Congélateur Crèmerie',
  serial: 'VG-TH-000123',
  model: 'Vigie TH-2',
  min: -25,
  max: -18,
  limitSources: [
    { ruleName: 'Surgelés', presetLabel: 'Surgelés\u00a0: ≤ −18 °C', regulation: 'Arrêté du 21 décembre 2009, annexe I' },
    { ruleName: 'Givrage du congélateur', presetLabel: null, regulation: null },
  ],
  base: -21,
  swing: 1.2,
  excursions: [
    excursion(
      '2026-10-08T09:10:00.000Z',
      '2026-10-08T09:55:00.000Z',
      -15.2,
      'above',
      alert('6a1f0e2d-1111-4c3b-8a9d-0e1f2a3b4c01', {
        openedAt: '2026-10-08T09:15:00.000Z',
        acknowledgedAt: '2026-10-08T09:20:00.000Z',
        acknowledgedBy: 'Élodie Marchand',
        resolvedAt: '2026-10-08T09:55:00.000Z',
        resolution: 'auto',
        actions: [
          {
            at: '2026-10-08T09:25:00.000Z',
            by: 'Élodie Marchand',
            text: 'Porte mal fermée après la livraison ; porte refermée, produits contrôlés à cœur : −19 °C.',
          },
        ],
      }),
    ),
    excursion(
      '2026-10-21T13:00:00.000Z',
      '2026-10-21T15:05:00.000Z',
      -12.4,
      'above',
      alert('6a1f0e2d-2222-4c3b-8a9d-0e1f2a3b4c02', {
        severity: 'warning',
        openedAt: '2026-10-21T13:10:00.000Z',
        acknowledgedAt: '2026-10-21T13:30:00.000Z',
        acknowledgedBy: 'Karim Benali',
        resolvedAt: '2026-10-21T15:30:00.000Z',
        resolution: 'manual',
        actions: [
          {
            at: '2026-10-21T13:35:00.000Z',
            by: 'Karim Benali',
            text: 'Dégivrage manuel lancé, produits transférés dans la chambre froide n° 2.',
          },
          { at: '2026-10-21T15:20:00.000Z', by: null, text: 'Retour sous −18 °C constaté.' },
        ],
      }),
    ),
    excursion('2026-10-27T03:00:00.000Z', '2026-10-27T03:20:00.000Z', -17.6, 'above', null),
  ],
  briefs: [],
  toleranceSeconds: 900,
  gaps: [{ from: '2026-10-14T01:00:00.000Z', to: '2026-10-14T06:00:00.000Z', durationSeconds: 5 * 3600 }],
  otherAlerts: [
    {
      id: '5a1c0c6e-8f0a-4f6b-9d7e-2b1f0e7c1d99',
      reason: 'Hors ligne',
      severity: 'critical',
      status: 'resolved',
      openedAt: '2026-10-14T01:10:00.000Z',
      acknowledgedAt: '2026-10-14T05:40:00.000Z',
      acknowledgedBy: 'Élodie Marchand',
      resolvedAt: '2026-10-14T06:00:00.000Z',
      resolution: 'auto',
      actions: [{ at: '2026-10-14T05:45:00.000Z', by: 'Élodie Marchand', text: 'Passerelle redémarrée après la coupure de courant.' }],
    },
  ],
  battery: { first: 64, last: 12, min: 12, events: [{ at: '2026-10-29T08:00:00.000Z', text: 'Batterie faible : 12\u202f%' }] },
  openItems: 1,
};

const DISPLAY_CASE: UnitSpec = {
  sensorId: '0b6c1a52-3e1f-4d7a-9a40-1c2d3e4f5a62',
  name: 'Vitrine réfrigérée Crèmerie',
  serial: 'VG-TH-000124',
  model: null,
  min: null,
  max: 4,
  limitSources: [
    {
      ruleName: 'Produits laitiers frais',
      presetLabel: 'Produits laitiers : ≤ +4 °C',
      regulation: 'Arrêté du 21 décembre 2009, annexe II',
    },
  ],
  base: 2.4,
  swing: 0.8,
  excursions: [
    excursion(
      '2026-10-05T11:00:00.000Z',
      '2026-10-05T11:40:00.000Z',
      6.3,
      'above',
      alert('6a1f0e2d-3333-4c3b-8a9d-0e1f2a3b4c03', {
        severity: 'warning',
        openedAt: '2026-10-05T11:10:00.000Z',
        resolvedAt: '2026-10-05T11:40:00.000Z',
        resolution: 'auto',
      }),
    ),
    excursion(
      '2026-10-31T20:30:00.000Z',
      null,
      7.1,
      'above',
      alert('6a1f0e2d-4444-4c3b-8a9d-0e1f2a3b4c04', { status: 'open', openedAt: '2026-10-31T20:35:00.000Z' }),
    ),
  ],
  // Three doors opened for deliveries on the 10th, shorter than the rule's 10 min delay.
  briefs: [
    { start: '2026-10-10T06:30:00.000Z', seconds: 240, peak: 4.8 },
    { start: '2026-10-10T07:10:00.000Z', seconds: 180, peak: 4.5 },
    { start: '2026-10-10T14:00:00.000Z', seconds: 300, peak: 5.1 },
  ],
  toleranceSeconds: 600,
  gaps: [],
  battery: { first: 91, last: 88, min: 88, events: [] },
  openItems: 1,
};

const COLD_ROOM: UnitSpec = {
  sensorId: '0b6c1a52-3e1f-4d7a-9a40-1c2d3e4f5a63',
  name: 'Chambre froide légumes',
  serial: null,
  model: null,
  min: null,
  max: null,
  limitSources: [],
  base: 7.5,
  swing: 1.5,
  excursions: [],
  briefs: [],
  toleranceSeconds: 0,
  gaps: [],
  battery: { first: null, last: null, min: null, events: [] },
  openItems: 0,
};

function buildContent(specs: UnitSpec[], createdByName: string | null): ReportContent {
  const units = specs.map(buildUnit);
  const summaries = units.map(summarize);
  return {
    reportId: FIXTURE_REPORT_ID,
    organizationName: 'Fromagerie Lefèvre & Fils',
    siteName: 'Magasin de Lyon — Croix-Rousse',
    timezone: FIXTURE_TIMEZONE,
    month: '2026-10',
    createdAt: '2026-11-01T05:00:00.000Z',
    createdByName,
    summary: {
      siteName: 'Magasin de Lyon — Croix-Rousse',
      timezone: FIXTURE_TIMEZONE,
      from: FROM,
      to: TO,
      units: summaries,
      excursionCount: summaries.reduce((sum, s) => sum + s.excursionCount, 0),
      excursionSeconds: summaries.reduce((sum, s) => sum + s.excursionSeconds, 0),
      briefExcursionCount: summaries.reduce((sum, s) => sum + s.briefExcursionCount, 0),
      noDataSeconds: summaries.reduce((sum, s) => sum + s.noDataSeconds, 0),
      openItems: summaries.reduce((sum, s) => sum + s.openItems, 0),
    },
    units,
  };
}

/** The standard fixture: three units, made by the monthly job. */
export function reportFixture(options: { createdByName?: string | null } = {}): ReportContent {
  return buildContent([FREEZER, DISPLAY_CASE, COLD_ROOM], options.createdByName ?? null);
}

/** One freezer with an excursion every 8 hours, each with an action: tables that run over several pages. */
export function longReportFixture(): ReportContent {
  const excursions: ReportExcursion[] = [];
  for (let t = Date.parse('2026-10-01T06:00:00.000Z'); t < Date.parse('2026-10-31T00:00:00.000Z'); t += 8 * 3600 * 1000) {
    const start = new Date(t).toISOString();
    const end = new Date(t + 20 * 60 * 1000).toISOString();
    excursions.push(
      excursion(
        start,
        end,
        -16.5,
        'above',
        alert(`6a1f0e2d-5555-4c3b-8a9d-${String(excursions.length).padStart(12, '0')}`, {
          openedAt: start,
          acknowledgedAt: end,
          acknowledgedBy: 'Élodie Marchand',
          resolvedAt: end,
          resolution: 'auto',
          actions: [{ at: end, by: 'Élodie Marchand', text: 'Porte refermée, joint contrôlé.' }],
        }),
      ),
    );
  }
  return buildContent([{ ...FREEZER, excursions, gaps: [] }], 'Élodie Marchand');
}
