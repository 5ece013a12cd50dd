/**
 * The predictive analysis scored on the simulator's labelled faults (docs/api.md, Analyse prédictive):
 *
 * - anomaly detection: precision, recall and F1 of the detector on the standard scenarios of
 *   `faults.ts` (fed one-minute bucket means, as the product does), beside a static threshold on
 *   the rule's limit with its best delay;
 * - false alarms on the defrost cycles of the healthy fridge over seven days;
 * - lead time of the « dépassement prévu »: the product's forecast, computed every five minutes
 *   from the data so far, against the true first crossing of +8 °C by failing compressors, and no
 *   predicted breach on the healthy units.
 *
 * Nothing looks ahead: the detector is causal (an anomaly counts from the minute it is raised) and
 * each forecast sees only the readings before its own instant. `npx tsx bench/eval-faults.ts`
 * prints the table alone.
 */
import { fileURLToPath } from 'node:url';
import type { Rule } from '@vigie/contract';
import { createAnomalyDetector, type DetectedAnomaly } from '../apps/server/src/modules/insights/anomalies.ts';
import { resample } from '../apps/server/src/modules/insights/forecast.ts';
import { departing, forecastFrom, HISTORY_MS, predictBreach, STEP_MS } from '../apps/server/src/modules/insights/insights-compute.ts';
import {
  FAULT_KINDS,
  FAULT_LABELS,
  type FaultKind,
  firstCrossing,
  type LabelledScenario,
  labelledScenario,
  standardScenarios,
  type TimedValue,
} from '../apps/server/src/simulator/faults.ts';
import { frenchNumber, NBSP } from './french.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The detector's input: one-minute bucket means. */
const DETECTOR_STEP = MINUTE;
/** An anomaly raised up to an hour after a fault's end still counts as finding it (lenient count). */
const GRACE_MS = HOUR;
/**
 * The scored count: a fault is found when an alarm comes within its first two hours (the time a
 * shop has to move the stock); a later alarm during the fault is late, neither found nor false.
 */
const EARLY_MS = 2 * HOUR;
/** The detector learns during the first day: what it raises then is not scored. */
const LEARNING_MS = DAY;
/** An anomaly raised this long after a defrost's end is still taken as due to it. */
const DEFROST_AFTERMATH_MS = 30 * MINUTE;
const BASELINE_DELAYS_MINUTES = [0, 1, 2, 5, 10, 15, 30, 60];
const BASELINE_HYSTERESIS = 0.5;

const BUDGET_F1_MARGIN = 0.2;
const BUDGET_DEFROST_ALARMS = 0;
const BUDGET_LEAD_MINUTES = 30;

const fmt = (n: number, digits = 2) => frenchNumber(n, digits);
const degrees = (n: number) => `${n > 0 ? '+' : ''}${fmt(n, 0)}${NBSP}°C`;
const minutes = (ms: number) => (Number.isFinite(ms) ? `${fmt(ms / MINUTE, 0)}${NBSP}min` : '—');
const median = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** The limit of the alert rule watching each kind of unit (the regulation's: +8 °C, −18 °C). */
const limitOf = (scenario: LabelledScenario): number | null =>
  scenario.sensor.profile === 'fridge' ? 8 : scenario.sensor.profile === 'freezer' ? -18 : null;

function aboveRule(threshold: number): Rule {
  const at = new Date(0).toISOString();
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: `Température ≤ ${degrees(threshold)}`,
    enabled: true,
    sensorId: '00000000-0000-4000-8000-000000000002',
    siteId: null,
    condition: { type: 'above', key: 'temperature', threshold },
    delaySeconds: 0,
    hysteresis: BASELINE_HYSTERESIS,
    schedule: 'always',
    severity: 'critical',
    preset: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** An alarm and the instant it was raised (the end of the bucket that raised it). */
interface Raised {
  at: number;
  anomaly?: DetectedAnomaly;
}

interface Run {
  scenario: LabelledScenario;
  /** The minute buckets fed to the detectors, with their start. */
  buckets: (number | null)[];
  detected: Raised[];
  detectorDefrosts: { from: number; to: number }[];
}

function runDetector(scenario: LabelledScenario): Run {
  const buckets = resample(scenario.readings, DETECTOR_STEP, scenario.start, scenario.end);
  const detector = createAnomalyDetector({ stepMs: DETECTOR_STEP, profile: scenario.sensor.profile === 'door' ? 'door' : 'cold' });
  const detected: Raised[] = [];
  buckets.forEach((value, i) => {
    const ts = scenario.start + i * DETECTOR_STEP;
    for (const anomaly of detector.push(ts, value)) detected.push({ at: ts + DETECTOR_STEP, anomaly });
  });
  return { scenario, buckets, detected, detectorDefrosts: detector.defrosts() };
}

/** The static threshold: an alarm once the reading has stayed beyond the limit for `delay` minutes. */
function thresholdAlarms(run: Run, delayMinutes: number): Raised[] {
  const limit = limitOf(run.scenario);
  if (limit === null) return [];
  const alarms: Raised[] = [];
  let beyondSince: number | null = null;
  let active = false;
  run.buckets.forEach((value, i) => {
    const ts = run.scenario.start + i * DETECTOR_STEP;
    if (value === null) return;
    if (value > limit) {
      beyondSince ??= ts;
      if (!active && ts + DETECTOR_STEP - beyondSince >= Math.max(1, delayMinutes) * MINUTE) {
        active = true;
        alarms.push({ at: ts + DETECTOR_STEP });
      }
    } else {
      beyondSince = null;
      if (value <= limit - BASELINE_HYSTERESIS) active = false;
    }
  });
  return alarms;
}

interface Score {
  truePositives: number;
  falsePositives: number;
  missed: number;
  precision: number;
  recall: number;
  f1: number;
  /** Per fault kind: faults, found, and the delays from the fault's start to the first alarm. */
  byKind: Map<FaultKind, { faults: number; found: number; delays: number[] }>;
}

/** Event-based scoring: a fault is found by any alarm within its window; an alarm outside every window is false. */
function score(runs: Run[], alarmsOf: (run: Run) => Raised[], withinMs = Infinity): Score {
  let truePositives = 0;
  let falsePositives = 0;
  let missed = 0;
  const byKind = new Map(FAULT_KINDS.map((kind) => [kind, { faults: 0, found: 0, delays: [] as number[] }]));
  for (const run of runs) {
    const alarms = alarmsOf(run).filter((alarm) => alarm.at >= run.scenario.start + LEARNING_MS);
    for (const alarm of alarms)
      if (!run.scenario.faults.some((fault) => alarm.at >= fault.from && alarm.at <= fault.to + GRACE_MS)) falsePositives += 1;
    for (const fault of run.scenario.faults) {
      const first = alarms.find((alarm) => alarm.at >= fault.from && alarm.at <= Math.min(fault.to + GRACE_MS, fault.from + withinMs));
      const entry = byKind.get(fault.kind) as { faults: number; found: number; delays: number[] };
      entry.faults += 1;
      if (first) {
        truePositives += 1;
        entry.found += 1;
        entry.delays.push(first.at - fault.from);
      } else missed += 1;
    }
  }
  const precision = truePositives + falsePositives > 0 ? truePositives / (truePositives + falsePositives) : 0;
  const recall = truePositives + missed > 0 ? truePositives / (truePositives + missed) : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { truePositives, falsePositives, missed, precision, recall, f1, byKind };
}

/**
 * The product's « dépassement prévu » at `now`, as `computeInsights` makes it (insights-compute.ts):
 * the forecast from the minute means of the last seven days before the bucket in progress,
 * following the departure when the detector (fed the same minutes, up to now) says the unit is
 * leaving its normal, and the first step beyond the rule's limit.
 */
function predictedBreachAt(minutes: readonly TimedValue[], now: number, rule: Rule, departure: boolean): number | null {
  const start = Math.floor(now / STEP_MS) * STEP_MS;
  const history = minutes.slice(lowerBound(minutes, start - HISTORY_MS), lowerBound(minutes, start));
  const breach = predictBreach([rule], 'temperature', forecastFrom(history, start, departure));
  return breach ? Date.parse(breach.eta) : null;
}

/** The detector fed minute by minute up to each instant asked, in increasing order: is the unit departing now? */
function follower(scenario: LabelledScenario) {
  const buckets = resample(scenario.readings, DETECTOR_STEP, scenario.start, scenario.end);
  const minutes: TimedValue[] = [];
  buckets.forEach((value, i) => {
    if (value !== null) minutes.push({ ts: scenario.start + i * DETECTOR_STEP, value });
  });
  const detector = createAnomalyDetector({ stepMs: DETECTOR_STEP, profile: 'cold' });
  let next = 0;
  return {
    minutes,
    departingAt(now: number): boolean {
      for (; next < buckets.length && scenario.start + (next + 1) * DETECTOR_STEP <= now; next += 1)
        detector.push(scenario.start + next * DETECTOR_STEP, buckets[next] ?? null);
      return departing(detector.anomalies(), now);
    },
  };
}

/** The index of the first reading at or after ts. */
function lowerBound(readings: readonly TimedValue[], ts: number): number {
  let lo = 0;
  let hi = readings.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((readings[mid] as TimedValue).ts < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface LeadTime {
  name: string;
  crossing: number | null;
  /** When the forecast first announced the breach (after the fault's start), and the eta it gave. */
  firstPrediction: number | null;
  eta: number | null;
  /** Predictions made before the fault started: false ones. */
  early: number;
  computations: number;
}

function leadTime(scenario: LabelledScenario): LeadTime {
  const fault = scenario.faults[0];
  const limit = limitOf(scenario) ?? 8;
  const rule = aboveRule(limit);
  const crossing = fault ? firstCrossing(scenario.readings, limit, { after: fault.from }) : null;
  const result: LeadTime = { name: scenario.name, crossing, firstPrediction: null, eta: null, early: 0, computations: 0 };
  if (!fault || crossing === null) return result;
  // Sparse before the fault (every two hours once a day of history exists), every five minutes from an hour before it.
  const times: number[] = [];
  for (let now = scenario.start + DAY; now < fault.from - HOUR; now += 2 * HOUR) times.push(now);
  for (let now = Math.ceil((fault.from - HOUR) / STEP_MS) * STEP_MS; now <= crossing; now += STEP_MS) times.push(now);
  const follow = follower(scenario);
  for (const now of times) {
    result.computations += 1;
    const eta = predictedBreachAt(follow.minutes, now, rule, follow.departingAt(now));
    if (eta === null) continue;
    if (now < fault.from) result.early += 1;
    else if (result.firstPrediction === null) {
      result.firstPrediction = now;
      result.eta = eta;
      break;
    }
  }
  return result;
}

/** Predicted breaches on a healthy unit: every five minutes around each defrost, every hour elsewhere. */
function healthyPredictions(scenario: LabelledScenario): { computations: number; breaches: number[] } {
  const limit = limitOf(scenario);
  if (limit === null) return { computations: 0, breaches: [] };
  const rule = aboveRule(limit);
  const times = new Set<number>();
  for (let now = scenario.start + HOUR; now < scenario.end; now += HOUR) times.add(now);
  for (const defrost of scenario.defrosts) {
    const from = Math.ceil((defrost.from - 10 * MINUTE) / STEP_MS) * STEP_MS;
    for (let now = from; now <= defrost.to + 15 * MINUTE && now < scenario.end; now += STEP_MS)
      if (now > scenario.start + HOUR) times.add(now);
  }
  const breaches: number[] = [];
  const follow = follower(scenario);
  for (const now of [...times].sort((a, b) => a - b))
    if (predictedBreachAt(follow.minutes, now, rule, follow.departingAt(now)) !== null) breaches.push(now);
  return { computations: times.size, breaches };
}

/** Anomalies raised on a healthy unit during a defrost or just after it, once the learning day is over. */
function defrostAlarms(run: Run): DetectedAnomaly[] {
  const { scenario } = run;
  return run.detected
    .filter((raised) => raised.at >= scenario.start + LEARNING_MS)
    .filter((raised) =>
      scenario.defrosts.some((defrost) => {
        const from = defrost.from;
        const to = defrost.to + DEFROST_AFTERMATH_MS;
        const overlaps = raised.anomaly ? raised.anomaly.from <= to && raised.anomaly.to >= from : false;
        return (raised.at >= from && raised.at <= to) || overlaps;
      }),
    )
    .flatMap((raised) => (raised.anomaly ? [raised.anomaly] : []));
}

/** How many of the true defrosts the detector recognised (a recognised window overlapping each). */
function recognisedDefrosts(run: Run): number {
  return run.scenario.defrosts.filter(
    (defrost) =>
      defrost.from >= run.scenario.start + LEARNING_MS && run.detectorDefrosts.some((d) => d.from <= defrost.to && d.to >= defrost.from),
  ).length;
}

export interface FaultEvaluation {
  /** The report, in Markdown, in French. */
  table: string;
  /** One French line per budget missed; empty when all are kept. */
  budgetsMissed: string[];
}

export function evaluateFaults(): FaultEvaluation {
  const started = performance.now();
  const lines: string[] = [];
  const budgetsMissed: string[] = [];
  const scenarios = standardScenarios().map(labelledScenario);
  const runs = scenarios.map(runDetector);
  const detectorMs = performance.now() - started;

  // 1. Detection against the static threshold with its best delay.
  const detector = score(runs, (run) => run.detected, EARLY_MS);
  const baselines = BASELINE_DELAYS_MINUTES.map((delay) => ({ delay, score: score(runs, (run) => thresholdAlarms(run, delay), EARLY_MS) }));
  const baseline = baselines.reduce((best, candidate) => (candidate.score.f1 > best.score.f1 ? candidate : best));
  // The lenient count (any alarm until an hour after the fault's end), shown beside it.
  const lenient = score(runs, (run) => run.detected);
  const lenientBaseline = BASELINE_DELAYS_MINUTES.map((delay) => score(runs, (run) => thresholdAlarms(run, delay))).reduce(
    (best, candidate) => (candidate.f1 > best.f1 ? candidate : best),
  );
  const faults = detector.truePositives + detector.missed;
  const f1Ok = detector.f1 >= baseline.score.f1 + BUDGET_F1_MARGIN;
  if (!f1Ok)
    budgetsMissed.push(
      `F1 du détecteur ${fmt(detector.f1)} < F1 du seuil fixe ${fmt(baseline.score.f1)} + ${fmt(BUDGET_F1_MARGIN, 1)} (${fmt(baseline.score.f1 + BUDGET_F1_MARGIN)})`,
    );
  lines.push(
    `Pannes simulées\u202f: ${scenarios.length} scénarios (${faults} pannes étiquetées, lectures moyennées à la minute\u202f; une panne est repérée par une alerte levée dans ses ${minutes(EARLY_MS)} premières, le temps de sauver la marchandise — une alerte plus tardive pendant la panne n’est ni comptée ni fausse\u202f; premier jour d’apprentissage non compté)`,
    '',
    '| méthode | pannes repérées | fausses alertes | pannes manquées | précision | rappel | F1 | budget F1 ≥ seuil fixe + 0,2 |',
    '|---|---|---|---|---|---|---|---|',
    `| détecteur d’anomalies | ${detector.truePositives} | ${detector.falsePositives} | ${detector.missed} | ${fmt(detector.precision)} | ${fmt(detector.recall)} | ${fmt(detector.f1)} | ${f1Ok ? 'tenu' : 'MANQUÉ'} |`,
    `| seuil fixe (${degrees(8)}, congélateur ${degrees(-18)}), délai ${baseline.delay}${NBSP}min (le meilleur) | ${baseline.score.truePositives} | ${baseline.score.falsePositives} | ${baseline.score.missed} | ${fmt(baseline.score.precision)} | ${fmt(baseline.score.recall)} | ${fmt(baseline.score.f1)} | référence |`,
    '',
    `Compte indulgent (toute alerte jusqu’à ${minutes(GRACE_MS)} après la fin de la panne)\u202f: F1 du détecteur ${fmt(lenient.f1)} (précision ${fmt(lenient.precision)}, rappel ${fmt(lenient.recall)}), du seuil fixe ${fmt(lenientBaseline.f1)} (précision ${fmt(lenientBaseline.precision)}, rappel ${fmt(lenientBaseline.recall)}).`,
    '',
    '| panne | pannes | repérées (détecteur) | délai médian (détecteur) | repérées (seuil fixe) | délai médian (seuil fixe) |',
    '|---|---|---|---|---|---|',
  );
  for (const kind of FAULT_KINDS) {
    const d = detector.byKind.get(kind);
    const b = baseline.score.byKind.get(kind);
    if (!d || !b || d.faults === 0) continue;
    lines.push(
      `| ${FAULT_LABELS[kind]} | ${d.faults} | ${d.found} | ${minutes(median(d.delays))} | ${b.found} | ${minutes(median(b.delays))} |`,
    );
  }

  // 2. Defrosts of the healthy fridge (and freezer).
  lines.push('');
  for (const run of runs.filter((r) => r.scenario.faults.length === 0)) {
    const alarms = defrostAlarms(run);
    const counted = run.scenario.defrosts.filter((d) => d.from >= run.scenario.start + LEARNING_MS).length;
    const isFridge = run.scenario.sensor.profile === 'fridge';
    const ok = alarms.length <= BUDGET_DEFROST_ALARMS;
    if (isFridge && !ok)
      budgetsMissed.push(`${alarms.length} fausse(s) alerte(s) sur les dégivrages du réfrigérateur sain (budget ${BUDGET_DEFROST_ALARMS})`);
    const all = run.detected.filter((raised) => raised.at >= run.scenario.start + LEARNING_MS).length;
    lines.push(
      `${run.scenario.name}\u202f: ${alarms.length} anomalie(s) levée(s) sur ${counted} dégivrages après le premier jour, ${all} en tout\u202f; dégivrages reconnus par le détecteur\u202f: ${recognisedDefrosts(run)}/${counted}${isFridge ? ` — budget ${BUDGET_DEFROST_ALARMS} ${ok ? 'tenu' : 'MANQUÉ'}` : ''}`,
    );
  }

  // 3. Lead time of the « dépassement prévu » on failing compressors; none on healthy units.
  const forecastStarted = performance.now();
  const failing = scenarios.filter((s) => s.faults.some((f) => f.kind === 'compressor_failing') && s.sensor.profile === 'fridge');
  const leads = failing.map(leadTime);
  const leadValues = leads.flatMap((l) => (l.crossing === null ? [] : [l.firstPrediction === null ? 0 : l.crossing - l.firstPrediction]));
  const leadMedian = median(leadValues);
  const early = leads.reduce((sum, l) => sum + l.early, 0);
  const healthy = scenarios.filter((s) => s.faults.length === 0).map((s) => ({ scenario: s, ...healthyPredictions(s) }));
  const healthyBreaches = healthy.reduce((sum, h) => sum + h.breaches.length, 0);
  const leadOk = leadMedian >= BUDGET_LEAD_MINUTES * MINUTE && healthyBreaches === 0 && early === 0;
  if (!(leadMedian >= BUDGET_LEAD_MINUTES * MINUTE))
    budgetsMissed.push(`avance médiane du «\u202fdépassement prévu\u202f» ${minutes(leadMedian)} < ${BUDGET_LEAD_MINUTES}${NBSP}min`);
  if (healthyBreaches > 0 || early > 0)
    budgetsMissed.push(`${healthyBreaches + early} «\u202fdépassement prévu\u202f» sur des appareils sains (budget 0)`);
  lines.push(
    '',
    `«\u202fDépassement prévu\u202f» (prévision du produit recalculée toutes les 5${NBSP}min sur les lectures passées, règle au-dessus de ${degrees(8)})\u202f: compresseurs qui faiblissent`,
    '',
    '| appareil | franchissement réel de +8\u00a0°C après le début de la panne | première prévision du dépassement | avance | écart de l’heure prévue |',
    '|---|---|---|---|---|',
  );
  for (const l of leads) {
    const fault = failing.find((s) => s.name === l.name)?.faults[0];
    const since = (t: number | null) => (t === null || !fault ? '—' : minutes(t - fault.from));
    const lead = l.crossing !== null && l.firstPrediction !== null ? minutes(l.crossing - l.firstPrediction) : '—';
    const etaError = l.crossing !== null && l.eta !== null ? minutes(l.eta - l.crossing).replace(/^(?=\d)/, '+') : '—';
    lines.push(`| ${l.name} | ${since(l.crossing)} | ${since(l.firstPrediction)} | ${lead} | ${etaError} |`);
  }
  lines.push(
    '',
    `Avance médiane\u202f: ${minutes(leadMedian)} (budget ≥ ${BUDGET_LEAD_MINUTES}${NBSP}min)\u202f; «\u202fdépassement prévu\u202f» sur les appareils sains\u202f: ${healthy
      .map(
        (h) =>
          `${h.scenario.name} ${h.breaches.length} sur ${h.computations} calculs${h.breaches.length ? ` (le premier après ${minutes((h.breaches[0] ?? 0) - h.scenario.start)} d’historique)` : ''}`,
      )
      .join(', ')}, avant la panne sur les compresseurs ${early} (budget 0) — ${leadOk ? 'tenu' : 'MANQUÉ'}`,
    '',
    `Durée\u202f: détecteur ${fmt(detectorMs / 1000, 1)}${NBSP}s, prévisions ${fmt((performance.now() - forecastStarted) / 1000, 1)}${NBSP}s`,
  );
  return { table: lines.join('\n'), budgetsMissed };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { table, budgetsMissed } = evaluateFaults();
  console.log(table);
  if (budgetsMissed.length > 0) {
    console.error(`Budget manqué\u202f: ${budgetsMissed.join('\u202f; ')}`);
    process.exit(1);
  }
}
