import {
  ACTION_KIND_LABELS,
  type Alert,
  type AlertEvent,
  type Calibration,
  type Pause,
  PROCESS_KIND_LABELS,
  type Process,
  CHECK_KIND_LABELS,
  type Check,
  PRODUCT_FATE_LABELS,
  type ReportSummary,
  type ReportUnitSummary,
  RULE_PRESETS,
  type Rule,
  type Site,
  type Task,
  answerText,
} from '@vigie/contract';
import { computeUnit } from './report-compute.ts';
import type {
  LimitSource,
  ReportAlert,
  ReportBatteryEvent,
  ReportCheck,
  ReportContent,
  ReportExcursion,
  ReportOtherAlert,
  ReportUnit,
  ReportPause,
  ReportPlan,
  ReportVerification,
} from './report-content.ts';
import { type LocalDay, monthOf } from '../../lib/local-time.ts';

/** A sensor of the site, as the report names it. */
export interface ReportSensor {
  id: string;
  name: string;
  serial: string | null;
  model: string | null;
  inactivityTimeoutSeconds: number;
}

/** What the builder reads of other modules, through their services. */
export interface ReportSources {
  organizationName: (organizationId: string) => Promise<string>;
  sensorsOf: (organizationId: string, siteId: string) => Promise<ReportSensor[]>;
  /** Rules that watch this sensor: its own and its site's. */
  rulesOf: (organizationId: string, sensorId: string, siteId: string) => Promise<Rule[]>;
  /** The sensor's alerts active at some point of [from, to), all of them, oldest first. */
  alertsOf: (organizationId: string, sensorId: string, from: Date, to: Date) => Promise<Alert[]>;
  series: (sensorId: string, key: string, from: Date, to: Date) => Promise<{ ts: number; value: number }[]>;
  namesOf: (userIds: string[]) => Promise<Map<string, string>>;
  /** The site's checks taken by hand in [from, to), oldest first. */
  checksOf?: (organizationId: string, siteId: string, from: Date, to: Date) => Promise<Check[]>;
  /** The sensor's pauses (its own and its site's) that overlap [from, to), oldest first. */
  pausesOf?: (organizationId: string, sensorId: string, siteId: string, from: Date, to: Date) => Promise<Pause[]>;
  /** Each sensor's last verification at or before `before`. */
  verificationsOf?: (sensorIds: string[], before: Date) => Promise<Map<string, Calibration>>;
  /** Verifications of these sensors recorded after `after` and dated before `before`. */
  recordedAfter?: (sensorIds: string[], after: Date, before: Date) => Promise<Calibration[]>;
  /**
   * The site's food-safety plan in [from, to): its tasks due (with their answers and photos' hashes),
   * its processes started, and the alerts they opened.
   */
  planOf?: (organizationId: string, siteId: string, from: Date, to: Date) => Promise<PlanRecord>;
}

/** What the tasks module gives a report of its plan. */
export interface PlanRecord {
  tasks: (Task & { photoHashes: string[] })[];
  processes: Process[];
  alerts: Alert[];
}

/**
 * A report of a month already signed: the signed report's figures as they were signed, whatever
 * was recorded since, and beside them the amendments — verifications dated inside recorded after
 * the signature (never applied to it), checks entered late with both dates, readings received late.
 */
export async function buildAmendedContent(
  sources: ReportSources,
  input: { reportId: string; organizationId: string; site: Site; now: Date; createdByName: string | null },
  signed: {
    content: ReportContent;
    record: { id: string; signedAt: Date | null; signedByName: string | null; signedSha256: string | null };
  },
): Promise<ReportContent> {
  const { signature: _signature, amendments: _previous, ...figures } = signed.content;
  const signedAt = signed.record.signedAt ?? input.now;
  const period = monthOf(figures.month, figures.timezone);
  const from = period.from;
  const to = Math.min(period.to, Date.parse(figures.createdAt));
  const names = new Map(figures.units.map((unit) => [unit.sensorId, unit.name]));
  const sensorName = (id: string | null) => (id ? (names.get(id) ?? 'Capteur supprimé') : null);

  const corrections = sources.recordedAfter
    ? (await sources.recordedAfter([...names.keys()], signedAt, new Date(period.to)))
        .filter((calibration) => calibration.amendedPeriod !== null)
        .map((calibration) => ({
          sensorName: sensorName(calibration.sensorId) ?? '',
          verifiedAt: calibration.verifiedAt,
          recordedAt: calibration.createdAt,
          by: calibration.by.name,
          method: calibration.method,
          note: calibration.note,
          offset: calibration.offset,
          appliesFrom: calibration.appliesFrom,
        }))
    : [];
  const lateChecks = sources.checksOf
    ? (await sources.checksOf(input.organizationId, input.site.id, new Date(from), new Date(period.to)))
        .filter((check) => Date.parse(check.createdAt) > signedAt.getTime())
        .map((check) => ({ ...reportCheck(check, sensorName), enteredAt: check.createdAt }))
    : [];
  const lateActions: NonNullable<ReportContent['amendments']>['lateActions'] = [];
  const lateReadings: { sensorName: string; count: number }[] = [];
  for (const unit of figures.units) {
    const alerts = await sources.alertsOf(input.organizationId, unit.sensorId, new Date(from), new Date(to));
    const events = alerts.flatMap((alert) =>
      alert.events
        .filter((event) => Date.parse(event.at) > signedAt.getTime())
        .filter((event) => event.type === 'action' || event.type === 'acknowledged' || event.type === 'resolved')
        .map((event) => ({ alert, event })),
    );
    const people = await sources.namesOf(events.flatMap(({ event }) => (event.userId ? [event.userId] : [])));
    for (const { alert, event } of events) {
      lateActions.push({
        sensorName: unit.name,
        alertOpenedAt: alert.openedAt,
        at: event.at,
        by: event.userId ? (people.get(event.userId) ?? 'Utilisateur supprimé') : null,
        text: event.text ?? (event.type === 'acknowledged' ? 'Alerte acquittée' : event.type === 'resolved' ? 'Alerte close' : ''),
        ...actionParts(event),
      });
    }
    const stored = (await sources.series(unit.sensorId, KEY, new Date(from), new Date(to))).filter(
      (reading) => reading.ts >= from && reading.ts < to,
    ).length;
    if (stored > unit.readingCount) lateReadings.push({ sensorName: unit.name, count: stored - unit.readingCount });
  }
  return {
    ...figures,
    reportId: input.reportId,
    createdAt: input.now.toISOString(),
    createdByName: input.createdByName,
    amendments: {
      signedReportId: signed.record.id,
      signedAt: signedAt.toISOString(),
      signedBy: signed.record.signedByName ?? 'un membre',
      signedSha256: signed.record.signedSha256 ?? '',
      corrections,
      lateChecks,
      lateActions,
      lateReadings,
    },
  };
}

const NUMBER = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 2 });

/** « 12 kg », « 3 colis ». */
function quantityText(quantity: { value: number; unit: string }): string {
  return `${NUMBER.format(quantity.value)}\u00a0${quantity.unit}`;
}

/** What an action line says of its guided kind and the products' fate. */
function actionParts(event: AlertEvent): { kind: string | null; fate: string | null } {
  const details = event.action;
  if (!details) return { kind: null, fate: null };
  const fate = details.fate
    ? `Produits ${PRODUCT_FATE_LABELS[details.fate.outcome].toLowerCase()}\u00a0: ${quantityText(details.fate.quantity)} de ${details.fate.product}`
    : null;
  return { kind: details.kind === 'other' ? null : ACTION_KIND_LABELS[details.kind], fate };
}

/** A check as the report lists it. */
export function reportCheck(check: Check, sensorName: (id: string | null) => string | null): ReportCheck {
  const unit = sensorName(check.sensorId);
  const subject =
    check.kind === 'delivery'
      ? `${check.product ?? ''} — ${check.supplier ?? ''}${check.quantity ? ` (${quantityText(check.quantity)})` : ''}`
      : [check.product, unit].filter(Boolean).join(' — ') || 'Meuble';
  const decision =
    check.kind === 'delivery'
      ? check.accepted
        ? 'Acceptée'
        : `Refusée${check.quantity ? `\u00a0: ${quantityText(check.quantity)}` : ''}`
      : null;
  return {
    at: check.takenAt,
    by: check.takenBy.name,
    kind: CHECK_KIND_LABELS[check.kind],
    subject,
    temperature: check.temperature,
    decision,
    note: check.note,
  };
}

const KEY = 'temperature';

/** The limits a sensor is held to: the tightest of its enabled temperature rules, whatever their schedule. */
export function limitsOf(rules: Rule[]): { min: number | null; max: number | null; sources: LimitSource[]; toleranceSeconds: number } {
  let min: number | null = null;
  let max: number | null = null;
  let tolerance: number | null = null;
  const sources: LimitSource[] = [];
  for (const rule of rules) {
    if (!rule.enabled) continue;
    const condition = rule.condition;
    if (condition.type !== 'above' && condition.type !== 'below' && condition.type !== 'outside') continue;
    if (condition.key !== KEY) continue;
    if (condition.type === 'above' || condition.type === 'outside') {
      const limit = condition.type === 'above' ? condition.threshold : condition.max;
      max = max === null ? limit : Math.min(max, limit);
    }
    if (condition.type === 'below' || condition.type === 'outside') {
      const limit = condition.type === 'below' ? condition.threshold : condition.min;
      min = min === null ? limit : Math.max(min, limit);
    }
    tolerance = tolerance === null ? rule.delaySeconds : Math.min(tolerance, rule.delaySeconds);
    const preset = rule.preset ? RULE_PRESETS[rule.preset] : null;
    sources.push({ ruleName: rule.name, regulation: preset?.source ?? null, presetLabel: preset?.label ?? null });
  }
  return { min, max, sources, toleranceSeconds: tolerance ?? 0 };
}

const overlaps = (alert: Alert, from: number, to: number) =>
  Date.parse(alert.openedAt) < to && (alert.resolvedAt === null || Date.parse(alert.resolvedAt) >= from);

/** The times of a unit in and out of its limits and without data, for the report's summary. */
interface UnitTimes {
  inRangeSeconds: number;
  outOfRangeSeconds: number;
  noDataSeconds: number;
}

/**
 * One sensor's section of a report over [from, to): its figures, excursions, alerts, battery,
 * pauses and verification. Null when it is no unit: it measured no temperature in the period and
 * no temperature rule holds it.
 */
async function buildUnit(
  sources: ReportSources,
  period: { organizationId: string; siteId: string; from: number; to: number; days: LocalDay[] },
  sensor: ReportSensor,
  timing: { nowMs: number; cutAtMaking: boolean; verification: Calibration | undefined },
): Promise<{ unit: ReportUnit; times: UnitTimes } | null> {
  const { organizationId, from, to } = period;
  const { nowMs, cutAtMaking } = timing;
  const rules = await sources.rulesOf(organizationId, sensor.id, period.siteId);
  const limits = limitsOf(rules);
  const margin = sensor.inactivityTimeoutSeconds * 1000;
  const readings = await sources.series(sensor.id, KEY, new Date(from - margin), new Date(to + margin));
  const inPeriod = readings.some((reading) => reading.ts >= from && reading.ts < to);
  // A unit is a sensor that measured temperature in the month or is held to temperature limits.
  if (!inPeriod && limits.sources.length === 0) return null;
  // Of the readings around the period, only the nearest on each side tells whether its edges were covered.
  const before = readings.filter((reading) => reading.ts < from).at(-1);
  const after = readings.find((reading) => reading.ts >= to);
  const series = [
    ...(before ? [before] : []),
    ...readings.filter((reading) => reading.ts >= from && reading.ts < to),
    ...(after ? [after] : []),
  ];
  const figures = computeUnit({
    from,
    to,
    cutAtMaking,
    days: period.days,
    timeoutSeconds: sensor.inactivityTimeoutSeconds,
    min: limits.min,
    max: limits.max,
    readings: series,
    silentAfterEnd: !cutAtMaking && after === undefined && nowMs >= to + margin,
  });

  const alerts = (await sources.alertsOf(organizationId, sensor.id, new Date(from), new Date(to))).filter((alert) =>
    overlaps(alert, from, to),
  );
  const pauses = sources.pausesOf ? await sources.pausesOf(organizationId, sensor.id, period.siteId, new Date(from), new Date(to)) : [];
  const people = await sources.namesOf([
    ...alerts.flatMap((alert) => [
      ...(alert.acknowledgedBy ? [alert.acknowledgedBy] : []),
      ...alert.events.flatMap((event) => (event.userId ? [event.userId] : [])),
    ]),
    ...pauses.flatMap((pause) => (pause.createdBy ? [pause.createdBy] : [])),
  ]);
  const nameOf = (id: string | null | undefined) => (id ? (people.get(id) ?? 'Utilisateur supprimé') : null);
  // A « dépassement prévu » is a forecast: never the alert of a measured excursion.
  const temperatureAlerts = alerts.filter((alert) => alert.key === KEY && !alert.forecast);
  const used = new Set<string>();
  const allExcursions: ReportExcursion[] = figures.excursions.map((excursion) => {
    const start = Date.parse(excursion.start);
    const end = excursion.end === null ? Infinity : Date.parse(excursion.end);
    // The alert raised for it: the first one (alerts come oldest first) that was active during the excursion.
    const alert = temperatureAlerts
      .filter((candidate) => !used.has(candidate.id))
      .find(
        (candidate) =>
          Date.parse(candidate.openedAt) <= end && (candidate.resolvedAt === null || Date.parse(candidate.resolvedAt) >= start),
      );
    if (!alert) return { ...excursion, alert: null };
    used.add(alert.id);
    return { ...excursion, alert: reportAlert(alert) };
  });
  function reportAlert(alert: Alert): ReportAlert {
    return {
      id: alert.id,
      severity: alert.severity,
      status: alert.status,
      openedAt: alert.openedAt,
      acknowledgedAt: alert.acknowledgedAt,
      acknowledgedBy: nameOf(alert.acknowledgedBy),
      resolvedAt: alert.resolvedAt,
      resolution: alert.resolution,
      actions: alert.events
        .filter(
          (event) => event.type === 'action' || (event.type === 'acknowledged' && event.text) || (event.type === 'resolved' && event.text),
        )
        .map((event) => ({ at: event.at, by: nameOf(event.userId), text: event.text ?? '', ...actionParts(event) })),
    };
  }
  // Alerts no measured excursion covers: offline, battery, a breach followed by silence.
  const otherAlerts: ReportOtherAlert[] = alerts
    .filter((alert) => !used.has(alert.id))
    .map((alert) => ({
      ...reportAlert(alert),
      reason: alert.forecast ? 'Dépassement prévu (une prévision, pas une mesure)' : alertReason(alert.key),
    }));

  // What the rules tolerate (their alert delay) is counted, not listed: a report of a freezer is
  // not a list of every door opening. What raised an alert or still runs is always listed.
  // One cut by the period's edges may have lasted longer outside it, and its alert opened after: always listed.
  const isBrief = (excursion: ReportExcursion) =>
    excursion.alert === null &&
    excursion.end !== null &&
    Date.parse(excursion.start) > from &&
    Date.parse(excursion.end) < to &&
    excursion.durationSeconds < limits.toleranceSeconds;
  const excursions = allExcursions.filter((excursion) => !isBrief(excursion));
  const brief = allExcursions.filter(isBrief);

  const batterySeries = (await sources.series(sensor.id, 'battery', new Date(from), new Date(to))).filter((reading) => reading.ts < to);
  const batteryEvents: ReportBatteryEvent[] = alerts
    .filter((alert) => alert.key === 'battery')
    .flatMap((alert) => [
      {
        at: alert.openedAt,
        text: `Batterie faible\u00a0: alerte ouverte${alert.peak !== null ? ` (${formatPercent(alert.peak)})` : ''}`,
      },
      ...(alert.resolvedAt ? [{ at: alert.resolvedAt, text: 'Batterie\u00a0: alerte close' }] : []),
    ])
    .filter((event) => Date.parse(event.at) >= from && Date.parse(event.at) < to);

  const unit: ReportUnit = {
    sensorId: sensor.id,
    name: sensor.name,
    serial: sensor.serial,
    model: sensor.model,
    key: KEY,
    unit: '°C',
    min: limits.min,
    max: limits.max,
    limitSources: limits.sources,
    inactivityTimeoutSeconds: sensor.inactivityTimeoutSeconds,
    readingCount: figures.readingCount,
    minValue: figures.minValue,
    meanValue: figures.meanValue,
    maxValue: figures.maxValue,
    days: figures.days,
    chart: figures.chart,
    excursions,
    briefExcursions: {
      count: brief.length,
      totalSeconds: brief.reduce((sum, excursion) => sum + excursion.durationSeconds, 0),
      toleranceSeconds: limits.toleranceSeconds,
    },
    gaps: figures.gaps,
    otherAlerts,
    battery: {
      first: batterySeries[0]?.value ?? null,
      last: batterySeries.at(-1)?.value ?? null,
      min: batterySeries.length > 0 ? batterySeries.reduce((low, reading) => Math.min(low, reading.value), Infinity) : null,
      events: batteryEvents,
    },
    openItems: alerts.filter((alert) => alert.status !== 'resolved').length,
    verification: verificationOf(timing.verification),
    pauses: pauses.map((pause) => reportPause(pause, from, to, people)),
  };
  const times = {
    inRangeSeconds: figures.inRangeSeconds,
    outOfRangeSeconds: figures.outOfRangeSeconds,
    noDataSeconds: figures.noDataSeconds,
  };
  return { unit, times };
}

/** Makes what a report of `site` for `month` says, from the data as it stands at `now`. */
export async function buildReportContent(
  sources: ReportSources,
  input: { reportId: string; organizationId: string; site: Site; month: string; now: Date; createdByName: string | null },
): Promise<ReportContent> {
  const { site, organizationId } = input;
  const period = monthOf(input.month, site.timezone);
  const nowMs = input.now.getTime();
  const cutAtMaking = nowMs < period.to;
  const from = period.from;
  const to = Math.min(period.to, nowMs);

  const units: ReportUnit[] = [];
  const times: UnitTimes[] = [];
  const sensors = await sources.sensorsOf(organizationId, site.id);
  const verifications = sources.verificationsOf
    ? await sources.verificationsOf(
        sensors.map((sensor) => sensor.id),
        new Date(to),
      )
    : new Map<string, Calibration>();
  for (const sensor of sensors) {
    const built = await buildUnit(sources, { organizationId, siteId: site.id, from, to, days: period.days }, sensor, {
      nowMs,
      cutAtMaking,
      verification: verifications.get(sensor.id),
    });
    if (!built) continue;
    units.push(built.unit);
    times.push(built.times);
  }

  const periodSeconds = (to - from) / 1000;
  const unitSummaries: ReportUnitSummary[] = units.map((unit, index) => {
    const figures = times[index] ?? { inRangeSeconds: 0, outOfRangeSeconds: 0, noDataSeconds: 0 };
    const hasLimits = unit.min !== null || unit.max !== null;
    return {
      sensorId: unit.sensorId,
      name: unit.name,
      min: unit.min,
      max: unit.max,
      // Rounded down: a unit that left its limits for a minute never reads 100 %.
      compliancePercent: hasLimits && periodSeconds > 0 ? floor((figures.inRangeSeconds / periodSeconds) * 100, 2) : null,
      inRangeSeconds: figures.inRangeSeconds,
      outOfRangeSeconds: figures.outOfRangeSeconds,
      noDataSeconds: figures.noDataSeconds,
      excursionCount: unit.excursions.length,
      excursionSeconds: unit.excursions.reduce((sum, excursion) => sum + excursion.durationSeconds, 0),
      briefExcursionCount: unit.briefExcursions.count,
      briefExcursionSeconds: unit.briefExcursions.totalSeconds,
      openItems: unit.openItems,
    };
  });
  const summary: ReportSummary = {
    siteName: site.name,
    timezone: site.timezone,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    units: unitSummaries,
    excursionCount: unitSummaries.reduce((sum, unit) => sum + unit.excursionCount, 0),
    excursionSeconds: unitSummaries.reduce((sum, unit) => sum + unit.excursionSeconds, 0),
    briefExcursionCount: unitSummaries.reduce((sum, unit) => sum + unit.briefExcursionCount, 0),
    noDataSeconds: unitSummaries.reduce((sum, unit) => sum + unit.noDataSeconds, 0),
    openItems: unitSummaries.reduce((sum, unit) => sum + unit.openItems, 0),
  };
  const sensorName = (id: string | null) => (id ? (sensors.find((sensor) => sensor.id === id)?.name ?? 'Capteur supprimé') : null);
  const checks = sources.checksOf
    ? (await sources.checksOf(organizationId, site.id, new Date(from), new Date(to))).map((check) => reportCheck(check, sensorName))
    : [];
  const record = sources.planOf ? await sources.planOf(organizationId, site.id, new Date(from), new Date(to)) : undefined;
  const plan = record ? await reportPlan(record, sources) : undefined;
  if (record) summary.tasks = planSummary(record.tasks);
  return {
    reportId: input.reportId,
    organizationName: await sources.organizationName(organizationId),
    siteName: site.name,
    timezone: site.timezone,
    month: input.month,
    createdAt: input.now.toISOString(),
    createdByName: input.createdByName,
    summary,
    units,
    checks,
    ...(plan ? { plan } : {}),
  };
}

const TASK_STATUS_LABELS: Record<Task['status'], string> = { pending: 'À faire', done: 'Faite', late: 'En retard', missed: 'Manquée' };
const PROCESS_STATUS_LABELS: Record<Process['status'], string> = { running: 'En cours', ok: 'Conforme', failed: 'En échec' };

/** The figures of the plan on the report's first page. */
export function planSummary(tasks: readonly Task[]): NonNullable<ReportSummary['tasks']> {
  const count = (status: Task['status']) => tasks.filter((task) => task.status === status).length;
  return {
    due: tasks.length,
    done: count('done'),
    late: count('late'),
    missed: count('missed'),
    nonconforming: tasks.filter((task) => task.result === 'nonconforming').length,
  };
}

/** The plan's tasks and processes as the report lists them, with the corrective actions of their alerts. */
async function reportPlan(record: PlanRecord, sources: Pick<ReportSources, 'namesOf'>): Promise<ReportPlan> {
  const alerts = new Map(record.alerts.map((alert) => [alert.id, alert]));
  const people = await sources.namesOf([
    ...new Set(record.alerts.flatMap((alert) => alert.events.flatMap((event) => (event.userId ? [event.userId] : [])))),
  ]);
  const actionsOf = (alertId: string | null) =>
    (alertId ? (alerts.get(alertId)?.events ?? []) : [])
      .filter((event) => event.type === 'action' || (event.type === 'resolved' && event.text))
      .map((event) => ({
        at: event.at,
        by: event.userId ? (people.get(event.userId) ?? 'Membre supprimé') : null,
        text: event.text ?? '',
        ...actionParts(event),
      }));
  return {
    tasks: record.tasks.map((task) => ({
      name: task.name,
      dueAt: task.dueAt,
      status: TASK_STATUS_LABELS[task.status],
      nonconforming: task.result === 'nonconforming',
      completedAt: task.completedAt,
      completedBy: task.completedByName,
      findings: (task.answers ?? []).filter((answer) => !answer.conforming).map((answer) => `${answer.label}\u00a0: ${answerText(answer)}`),
      comment: task.comment,
      photos: task.photoHashes,
      actions: actionsOf(task.alertId),
    })),
    processes: record.processes.map((process) => ({
      kind: PROCESS_KIND_LABELS[process.kind],
      product: process.product,
      startedAt: process.startedAt,
      endedAt: process.endedAt,
      status: PROCESS_STATUS_LABELS[process.status],
      failed: process.status === 'failed',
      failure: process.failure,
      first: process.readings[0]?.temperature ?? null,
      last: process.readings[process.readings.length - 1]?.temperature ?? null,
      readings: process.readings.length,
      by: process.startedByName,
      actions: actionsOf(process.alertId),
    })),
  };
}

/** A pause, clipped to the period, with who started it. */
function reportPause(pause: Pause, from: number, to: number, people: Map<string, string>): ReportPause {
  return {
    from: new Date(Math.max(Date.parse(pause.from), from)).toISOString(),
    until: new Date(Math.min(Date.parse(pause.until), to)).toISOString(),
    reason: pause.reason,
    scope: pause.sensorId ? 'sensor' : 'site',
    by: pause.createdBy ? (people.get(pause.createdBy) ?? null) : null,
  };
}

function verificationOf(calibration: Calibration | undefined): ReportVerification | null {
  if (!calibration) return null;
  return {
    verifiedAt: calibration.verifiedAt,
    method: calibration.method,
    offset: calibration.offset,
    nextDueAt: calibration.nextDueAt,
    by: calibration.by.name,
    certificate: calibration.certificate ? { fileName: calibration.certificate.fileName, sha256: calibration.certificate.sha256 } : null,
  };
}

function floor(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  // The epsilon keeps 100 % at 100 when floating point gives 99.99999999.
  return Math.floor(value * factor + 1e-9) / factor;
}

function alertReason(key: string | null): string {
  if (key === null) return 'Hors ligne';
  if (key === 'battery') return 'Batterie faible';
  if (key === KEY) return 'Température (sans excursion mesurée : suivie d’un silence)';
  return `Mesure « ${key} »`;
}

function formatPercent(value: number): string {
  return `${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 }).format(value)}\u202f%`;
}
