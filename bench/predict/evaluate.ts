/**
 * The predictive analysis judged on the generated scenarios (scenarios.ts): each run is replayed
 * through `computeInsights`, the very computation the server runs, fed as the server feeds it (the
 * minute means of the last seven days that have arrived by `now`) at successive instants, and
 * nothing it says is tuned on these runs: the seed base comes from the command line.
 *
 * What counts (the criteria are printed with the table):
 * - compressor stop, door ajar, slow compressor loss: found when a « dépassement prévu » is given
 *   before the true crossing with an `eta` within max(30 min, half the time left) of it; the lead is
 *   the crossing minus the first such instant (evaluated every 10 min, hourly earlier than 6 h
 *   before a slow loss's crossing);
 * - sensor drift, frozen sensor, stuck defrost: found when a current anomaly of a fitting kind
 *   appears after the fault started;
 * - healthy units: every hour of their second week, any « dépassement prévu » not followed by a true
 *   crossing and any current anomaly is a false alarm.
 */
import { availableParallelism } from 'node:os';
import type { AnomalyKind, Rule } from '@vigie/contract';
import {
  computeInsights,
  currentAnomalies,
  HISTORY_MS,
  type InsightsResult,
} from '../../apps/server/src/modules/insights/insights-compute.ts';
import { spreadJobs } from './spread.ts';
import { DAY, type FaultKind, firstCrossing, HOUR, MINUTE } from './cabinet.ts';
import type { SentReading } from './sampling.ts';
import { buildScenario, CADENCES_MINUTES, type Scenario, type ScenarioKind, SCENARIO_KINDS, sampleScenario } from './scenarios.ts';
import { frenchNumber, NBSP } from '../french.ts';

/** The default seed base: fixed so that a run is reproducible; `--seed` gives other scenarios. */
export const DEFAULT_SEED = 20_261_128;
export const DEFAULT_RUNS = 4;

const BUDGET_LEAD_MIN = 30 * MINUTE;
const BUDGET_LEAD_MEDIAN = 60 * MINUTE;
/** Share of the runs to find, per cadence. */
const BUDGET_SHARE: Partial<Record<ScenarioKind, { share: number; label: string }>> = {
  sensor_drift: { share: 2 / 3, label: '≥ 2 sur 3' },
  slow_loss: { share: 3 / 4, label: '≥ 3 sur 4' },
};

/** The anomaly kinds that name each fault (the contract's, packages/contract/src/insights.ts). */
const FITTING: Partial<Record<FaultKind, readonly AnomalyKind[]>> = {
  sensor_drift: ['drift', 'level_shift'],
  sensor_frozen: ['flatline'],
  defrost_stuck: ['defrost_long', 'level_shift', 'drift'],
};
const BREACH_FAULTS: ReadonlySet<ScenarioKind> = new Set(['compressor_stop', 'door_ajar', 'slow_loss', 'defrost_stuck']);

export const LABELS: Record<ScenarioKind, string> = {
  compressor_stop: 'arrêt du compresseur',
  door_ajar: 'porte entrouverte',
  slow_loss: 'compresseur qui faiblit',
  defrost_stuck: 'dégivrage bloqué',
  sensor_drift: 'sonde qui dérive',
  sensor_frozen: 'sonde figée',
  power_cut: 'coupure de courant',
  healthy: 'appareil sain',
};

const fmt = (n: number, digits = 0) => frenchNumber(n, digits);
const minutes = (ms: number | null) => (ms !== null && Number.isFinite(ms) ? `${fmt(ms / MINUTE)}${NBSP}min` : '—');
const median = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** A rule « above `limit` », as a site would set it on the sensor (the breach forecast's threshold). */
export function limitRule(limit: number): Rule {
  const at = new Date(0).toISOString();
  return {
    id: '00000000-0000-4000-8000-000000000028',
    name: `Température ≤ ${limit > 0 ? '+' : '−'}${Math.abs(limit)}${NBSP}°C`,
    enabled: true,
    sensorId: '00000000-0000-4000-8000-000000000029',
    siteId: null,
    condition: { type: 'above', key: 'temperature', threshold: limit },
    delaySeconds: 0,
    hysteresis: 0.5,
    schedule: 'always',
    severity: 'critical',
    preset: limit > 0 ? 'chilled_perishable' : 'frozen',
    createdAt: at,
    updatedAt: at,
  };
}

export interface Minute {
  ts: number;
  value: number;
  /** When the last reading of the minute arrived. */
  arrival: number;
}

/** The minute means the database would give, each with the arrival of its last reading. */
export function minuteMeans(readings: readonly SentReading[]): Minute[] {
  const minutesOut: Minute[] = [];
  let sum = 0;
  let count = 0;
  let bucket = Number.NaN;
  let arrival = 0;
  const flush = () => {
    if (count > 0) minutesOut.push({ ts: bucket, value: sum / count, arrival });
  };
  for (const reading of readings) {
    const start = Math.floor(reading.ts / MINUTE) * MINUTE;
    if (start !== bucket) {
      flush();
      bucket = start;
      sum = 0;
      count = 0;
      arrival = 0;
    }
    sum += reading.value;
    count += 1;
    arrival = Math.max(arrival, reading.arrival);
  }
  flush();
  return minutesOut;
}

function lowerBound(minutesIn: readonly Minute[], ts: number): number {
  let lo = 0;
  let hi = minutesIn.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((minutesIn[mid] as Minute).ts < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The analysis at `now`, given what the server would hold then (insights-service.ts: whole minutes over the last seven days). */
export function analyse(minutesIn: readonly Minute[], now: number, rule: Rule): InsightsResult {
  const end = Math.floor(now / MINUTE) * MINUTE + MINUTE;
  const first = lowerBound(minutesIn, end - HISTORY_MS);
  const last = lowerBound(minutesIn, end);
  const ts: number[] = [];
  const values: number[] = [];
  for (let i = first; i < last; i += 1) {
    const m = minutesIn[i] as Minute;
    if (m.arrival > now) continue;
    ts.push(m.ts);
    values.push(m.value);
  }
  return computeInsights({
    key: 'temperature',
    now,
    readings: { ts: Float64Array.from(ts), values: Float64Array.from(values) },
    battery: { ts: new Float64Array(0), values: new Float64Array(0) },
    rules: [rule],
  });
}

export interface RunOutcome {
  kind: ScenarioKind;
  index: number;
  cadence: number;
  found: boolean;
  /** Crossing minus the first fitting « dépassement prévu ». */
  leadMs: number | null;
  /** From the fault's start to the first evaluation that found it (anomalies). */
  delayMs: number | null;
  /** From the fault's start to the true crossing. */
  crossingMs: number | null;
  /** « Dépassement prévu » whose eta is outside the window around the true crossing, before the first fitting one. */
  offTarget: number;
  /** Ten minutes before the fault: a false « dépassement prévu » and the current anomalies. */
  beforeAlarms: number;
  /** On a healthy unit: false « dépassements prévus », and evaluations with a current anomaly. */
  falseBreaches: number;
  anomalyEvaluations: number;
  /** Of those, how many came within two hours of a defrost's start. */
  nearDefrost: number;
  /** The kinds of the anomalies seen (« avant : » those just before a fault). */
  anomalyKinds: string[];
  /** Draws turned down before the scenario (scenarios.ts). */
  redrawn: number;
  evaluations: number;
  disturbance: string;
  summary: string;
}

function describe(s: Scenario): string {
  const p = s.params;
  const fault = s.fault;
  const detail =
    fault?.kind === 'slow_loss'
      ? `, perte en ${fmt(fault.lossHours)}${NBSP}h`
      : fault?.kind === 'door_ajar'
        ? `, fuite ×${fmt(1 + fault.leak, 1)}`
        : fault?.kind === 'sensor_drift'
          ? `, ${fmt(fault.perDay, 1)}${NBSP}°C/j`
          : fault?.kind === 'power_cut'
            ? `, ${minutes(fault.durationMs)}`
            : fault?.kind === 'defrost_stuck'
              ? fault.heaterStaysOn
                ? ', résistance allumée'
                : ', compresseur à l’arrêt'
              : '';
  return `${p.kind === 'fridge' ? 'réfrigérateur' : 'congélateur'} consigne ${fmt(p.setpoint, 1)}${NBSP}°C, τ ${fmt(p.tauHours, 1)}${NBSP}h, pièce ${fmt(p.ambientMean, 1)}${NBSP}°C${p.doors ? '' : ', sans porte'}${detail}`;
}

function addKind(outcome: RunOutcome, kind: string) {
  if (!outcome.anomalyKinds.includes(kind)) outcome.anomalyKinds.push(kind);
}

function replay(scenario: Scenario, cadence: number, seedBase: number): RunOutcome {
  const sampled = sampleScenario(seedBase, scenario, cadence);
  const minutesIn = minuteMeans(sampled.readings);
  const rule = limitRule(scenario.params.limit);
  const onset = scenario.onset;
  const crossing = scenario.fault ? scenario.crossing : null;
  const outcome: RunOutcome = {
    kind: scenario.kind,
    index: scenario.index,
    cadence,
    found: false,
    leadMs: null,
    delayMs: null,
    crossingMs: crossing === null ? null : crossing - onset,
    offTarget: 0,
    beforeAlarms: 0,
    falseBreaches: 0,
    anomalyEvaluations: 0,
    nearDefrost: 0,
    anomalyKinds: [],
    redrawn: scenario.redrawn,
    evaluations: 0,
    disturbance: sampled.disturbance ? (sampled.disturbance.kind === 'gap' ? 'trou' : 'lot en retard') : '',
    summary: describe(scenario),
  };
  const run = (now: number) => {
    outcome.evaluations += 1;
    return analyse(minutesIn, now, rule);
  };
  /** A « dépassement prévu » at `now` that no true crossing follows within its eta and an hour. */
  const falseBreach = (result: InsightsResult, now: number) => {
    const breach = result.insights.breach;
    if (!breach) return false;
    return firstCrossing(scenario.trace, scenario.params.limit, now, Date.parse(breach.eta) + HOUR) === null;
  };
  const noteAnomalies = (result: InsightsResult, now: number) => {
    const current = currentAnomalies(result.insights.anomalies, now);
    if (current.length > 0) outcome.anomalyEvaluations += 1;
    for (const anomaly of current) addKind(outcome, anomaly.kind);
  };

  /** A defrost going on within the two hours before `now`. */
  const afterDefrost = (now: number) => {
    const { trace } = scenario;
    const last = Math.floor((now - trace.from) / trace.stepMs);
    for (let i = Math.max(0, last - (2 * HOUR) / trace.stepMs); i <= last && i < trace.defrosting.length; i += 1)
      if (trace.defrosting[i]) return true;
    return false;
  };

  if (scenario.kind === 'healthy') {
    for (let now = onset; now < scenario.to; now += HOUR) {
      const result = run(now);
      const breach = falseBreach(result, now);
      const anomalies = outcome.anomalyEvaluations;
      if (breach) outcome.falseBreaches += 1;
      noteAnomalies(result, now);
      if ((breach || outcome.anomalyEvaluations > anomalies) && afterDefrost(now)) outcome.nearDefrost += 1;
    }
    return outcome;
  }

  // Just before the fault: the unit is still healthy.
  const before = run(onset - 10 * MINUTE);
  if (falseBreach(before, onset - 10 * MINUTE)) outcome.beforeAlarms += 1;
  for (const anomaly of currentAnomalies(before.insights.anomalies, onset - 10 * MINUTE)) {
    outcome.beforeAlarms += 1;
    addKind(outcome, `avant : ${anomaly.kind}`);
  }

  const times: number[] = [];
  const kind = scenario.kind;
  if (kind === 'compressor_stop' || kind === 'door_ajar' || kind === 'slow_loss') {
    if (crossing === null) return outcome;
    const dense = kind === 'slow_loss' ? crossing - 6 * HOUR : onset;
    for (let now = onset + HOUR; now < dense; now += HOUR) times.push(now);
    for (let now = Math.max(onset + 10 * MINUTE, dense); now < crossing; now += 10 * MINUTE) times.push(now);
  } else if (kind === 'defrost_stuck') {
    const end = Math.min(scenario.to, crossing === null ? onset + 6 * HOUR : Math.max(crossing, onset + 3 * HOUR));
    for (let now = onset + 10 * MINUTE; now <= end; now += 10 * MINUTE) times.push(now);
  } else if (kind === 'sensor_drift') {
    for (let now = onset + 2 * HOUR; now <= onset + 2 * DAY; now += 2 * HOUR) times.push(now);
  } else if (kind === 'sensor_frozen') {
    for (let now = onset + 30 * MINUTE; now <= onset + 12 * HOUR; now += 30 * MINUTE) times.push(now);
  } else if (scenario.fault?.kind === 'power_cut') {
    const back = onset + scenario.fault.durationMs;
    for (let now = back + 10 * MINUTE; now <= back + 3 * HOUR; now += 10 * MINUTE) times.push(now);
  }

  const fitting = scenario.fault ? FITTING[scenario.fault.kind] : undefined;
  let breachDone = !BREACH_FAULTS.has(kind) || crossing === null;
  let anomalyDone = fitting === undefined && kind !== 'power_cut';
  for (const now of times) {
    if (breachDone && anomalyDone) break;
    const result = run(now);
    if (!breachDone && crossing !== null && now < crossing) {
      const breach = result.insights.breach;
      if (breach) {
        const eta = Date.parse(breach.eta);
        const tolerance = Math.max(30 * MINUTE, (crossing - now) / 2);
        if (Math.abs(eta - crossing) <= tolerance) {
          outcome.leadMs = crossing - now;
          breachDone = true;
        } else outcome.offTarget += 1;
      }
    }
    if (!anomalyDone) {
      const current = currentAnomalies(result.insights.anomalies, now).filter((anomaly) => Date.parse(anomaly.to) >= onset);
      for (const anomaly of current) addKind(outcome, anomaly.kind);
      const hit = kind === 'power_cut' ? current.length > 0 : current.some((anomaly) => fitting?.includes(anomaly.kind));
      if (hit) {
        outcome.delayMs = now - onset;
        anomalyDone = true;
      }
    }
  }
  outcome.found = fitting !== undefined || kind === 'power_cut' ? outcome.delayMs !== null : outcome.leadMs !== null;
  return outcome;
}

export interface ScenarioOptions {
  seed: number;
  runs: number;
  verbose: boolean;
  /** Threads replaying the scenarios (1: in this one). */
  workers: number;
}

/** What a worker thread is asked (scenario-worker.ts). */
export interface ScenarioJob {
  seed: number;
  kind: ScenarioKind;
  index: number;
  cadence: number;
}

export interface ScenarioReport {
  lines: string[];
  budgetsMissed: string[];
  outcomes: RunOutcome[];
}

let built: (Scenario & { seed: number }) | null = null;

/** The scenario `index` of this kind, replayed at this cadence (the last scenario built is kept for the next cadence). */
export function replayScenario(job: ScenarioJob): RunOutcome {
  if (!(built && built.kind === job.kind && built.index === job.index && built.seed === job.seed))
    built = { ...buildScenario(job.seed, job.kind, job.index), seed: job.seed };
  return replay(built, job.cadence, job.seed);
}

/** Every run, spread over `workers` threads (the longest, the healthy units', first). */
async function replayAll(options: ScenarioOptions): Promise<RunOutcome[]> {
  const jobs: ScenarioJob[] = [...SCENARIO_KINDS]
    .sort((a, b) => Number(b === 'healthy') - Number(a === 'healthy'))
    .flatMap((kind) =>
      Array.from({ length: options.runs }, (_, index) => CADENCES_MINUTES.map((cadence) => ({ seed: options.seed, kind, index, cadence }))),
    )
    .flat();
  const outcomes = await spreadJobs(jobs, options.workers, import.meta.url, 'scenario-worker', replayScenario);
  const order = (o: RunOutcome) => SCENARIO_KINDS.indexOf(o.kind) * 1e6 + o.index * 100 + o.cadence;
  return outcomes.sort((a, b) => order(a) - order(b));
}

export async function evaluateScenarios(options: ScenarioOptions): Promise<ScenarioReport> {
  const started = performance.now();
  const lines: string[] = [];
  const budgetsMissed: string[] = [];
  const outcomes = await replayAll(options);
  const redrawn = outcomes.filter((o) => o.cadence === CADENCES_MINUTES[0]).reduce((sum, o) => sum + o.redrawn, 0);
  const evaluations = outcomes.reduce((sum, o) => sum + o.evaluations, 0);

  lines.push(
    `Scénarios générés (bench/predict)\u202f: modèle thermique d’un meuble froid, ${options.runs} scénarios par panne, chacun relevé aux pas de ${CADENCES_MINUTES.join(', ')}${NBSP}min — graine ${options.seed} (\`--seed N\` pour d’autres scénarios, \`--runs N\` pour leur nombre)`,
    '',
    'Repérée\u202f: arrêt du compresseur, porte entrouverte, compresseur qui faiblit — «\u202fdépassement prévu\u202f» avant le franchissement réel, heure prévue à max(30 min, la moitié du temps restant) près\u202f; sonde qui dérive — anomalie «\u202fdrift\u202f» ou «\u202flevel_shift\u202f» en 48 h\u202f; sonde figée — «\u202fflatline\u202f» en 12 h\u202f; dégivrage bloqué — «\u202fdefrost_long\u202f», «\u202flevel_shift\u202f» ou «\u202fdrift\u202f»\u202f; coupure de courant (sans budget) — toute anomalie dans les 3 h après le retour du courant.',
    '',
    '| panne | pas | repérées | avance médiane | avance minimale | délai médian de l’anomalie | franchissement après le début (médiane) | alertes juste avant la panne | budget |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const kind of SCENARIO_KINDS) {
    if (kind === 'healthy') continue;
    for (const cadence of CADENCES_MINUTES) {
      const runs = outcomes.filter((o) => o.kind === kind && o.cadence === cadence);
      const found = runs.filter((o) => o.found).length;
      const leads = runs.map((o) => o.leadMs ?? 0);
      const hasLead = BREACH_FAULTS.has(kind);
      const delays = runs.flatMap((o) => (o.delayMs === null ? [] : [o.delayMs]));
      const crossings = runs.flatMap((o) => (o.crossingMs === null ? [] : [o.crossingMs]));
      const before = runs.reduce((sum, o) => sum + o.beforeAlarms, 0);
      let budget = '—';
      if (kind === 'compressor_stop' || kind === 'door_ajar') {
        const everyOne = runs.every((o) => o.leadMs !== null && o.leadMs >= BUDGET_LEAD_MIN);
        const medianOk = median(leads) >= BUDGET_LEAD_MEDIAN;
        budget = everyOne && medianOk ? 'tenu' : 'MANQUÉ';
        if (!everyOne)
          budgetsMissed.push(
            `${LABELS[kind]} au pas de ${cadence}${NBSP}min\u202f: ${runs.filter((o) => o.leadMs !== null && o.leadMs >= BUDGET_LEAD_MIN).length}/${runs.length} prévus ${minutes(BUDGET_LEAD_MIN)} avant (budget\u202f: tous)`,
          );
        if (!medianOk)
          budgetsMissed.push(
            `${LABELS[kind]} au pas de ${cadence}${NBSP}min\u202f: avance médiane ${minutes(median(leads))} < ${minutes(BUDGET_LEAD_MEDIAN)}`,
          );
      }
      const share = BUDGET_SHARE[kind];
      if (share) {
        const ok = found >= Math.ceil(share.share * runs.length - 1e-9);
        budget = `${share.label}\u202f: ${ok ? 'tenu' : 'MANQUÉ'}`;
        if (!ok)
          budgetsMissed.push(
            `${LABELS[kind]} au pas de ${cadence}${NBSP}min\u202f: ${found}/${runs.length} repérés (budget ${share.label})`,
          );
      }
      lines.push(
        `| ${LABELS[kind]} | ${cadence}${NBSP}min | ${found}/${runs.length} | ${hasLead ? minutes(median(leads)) : '—'} | ${hasLead ? minutes(Math.min(...leads)) : '—'} | ${delays.length ? minutes(median(delays)) : '—'} | ${crossings.length ? minutes(median(crossings)) : '—'} | ${before} | ${budget} |`,
      );
    }
  }
  lines.push(
    '',
    'Avance\u202f: un scénario non prévu compte 0 dans la médiane. Budgets\u202f: arrêt du compresseur et porte entrouverte tous prévus ≥ 30 min avant et avance médiane ≥ 60 min, à chaque pas.',
    '',
    `Appareils sains\u202f: ${options.runs} appareils, 14 jours chacun, la seconde semaine analysée toutes les heures (dégivrages compris)`,
    '',
    '| pas | calculs | «\u202fdépassement prévu\u202f» à tort | calculs avec une anomalie en cours | genres d’anomalie | calculs en alerte moins de 2 h après un début de dégivrage | budget 0 et 0 |',
    '|---|---|---|---|---|---|---|',
  );
  for (const cadence of CADENCES_MINUTES) {
    const runs = outcomes.filter((o) => o.kind === 'healthy' && o.cadence === cadence);
    const computations = runs.reduce((sum, o) => sum + o.evaluations, 0);
    const breaches = runs.reduce((sum, o) => sum + o.falseBreaches, 0);
    const anomalies = runs.reduce((sum, o) => sum + o.anomalyEvaluations, 0);
    const kinds = [...new Set(runs.flatMap((o) => o.anomalyKinds))].sort();
    const nearDefrost = runs.reduce((sum, o) => sum + o.nearDefrost, 0);
    const ok = breaches === 0 && anomalies === 0;
    if (breaches > 0)
      budgetsMissed.push(
        `appareils sains au pas de ${cadence}${NBSP}min\u202f: ${breaches} «\u202fdépassement prévu\u202f» à tort (budget 0)`,
      );
    if (anomalies > 0)
      budgetsMissed.push(
        `appareils sains au pas de ${cadence}${NBSP}min\u202f: ${anomalies} calculs avec une anomalie en cours (budget 0)`,
      );
    lines.push(
      `| ${cadence}${NBSP}min | ${fmt(computations)} | ${breaches} | ${anomalies} | ${kinds.join(', ') || '—'} | ${nearDefrost} | ${ok ? 'tenu' : 'MANQUÉ'} |`,
    );
  }
  if (options.verbose) {
    lines.push(
      '',
      '| panne | n° | pas | appareil | perturbation | repérée | avance | délai | franchissement | prévisions hors fenêtre | anomalies | calculs |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const o of outcomes)
      lines.push(
        `| ${LABELS[o.kind]} | ${o.index} | ${o.cadence}${NBSP}min | ${o.summary} | ${o.disturbance || '—'} | ${o.kind === 'healthy' ? '—' : o.found ? 'oui' : 'non'} | ${minutes(o.leadMs)} | ${minutes(o.delayMs)} | ${minutes(o.crossingMs)} | ${o.offTarget} | ${o.anomalyKinds.join(', ') || '—'} | ${o.evaluations} |`,
      );
  }
  lines.push(
    '',
    `Scénarios\u202f: ${fmt(evaluations)} analyses complètes (computeInsights) en ${fmt((performance.now() - started) / 1000, 1)}${NBSP}s sur ${options.workers} fil${options.workers > 1 ? 's' : ''} (\`--workers N\`), ${redrawn} tirages écartés (franchissement hors de la plage voulue).`,
  );
  return { lines, budgetsMissed, outcomes };
}

export function integerOption(argv: readonly string[], name: string, fallback: number, min: number): number {
  const i = argv.indexOf(name);
  if (i < 0) return fallback;
  const text = argv[i + 1] ?? '';
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || !Number.isSafeInteger(value)) {
    console.error(`${name} attend un nombre entier ≥ ${min} (reçu\u202f: «\u202f${text}\u202f»).`);
    process.exit(1);
  }
  return value;
}

/**
 * `--seed N` (the seed base), `--runs N` (scenarios per fault), `--workers N` (threads, by default
 * as many as the machine has cores, at most 4), `--verbose` (one line per run).
 */
export function scenarioOptionsFrom(argv: readonly string[]): ScenarioOptions {
  return {
    seed: integerOption(argv, '--seed', DEFAULT_SEED, 0),
    runs: integerOption(argv, '--runs', DEFAULT_RUNS, 1),
    verbose: argv.includes('--verbose'),
    workers: integerOption(argv, '--workers', Math.min(4, availableParallelism()), 1),
  };
}

/** The scenario part of `npm run eval:predict`: prints its tables; false when a budget is missed. */
export async function printScenarioEvaluation(argv: readonly string[]): Promise<boolean> {
  const report = await evaluateScenarios(scenarioOptionsFrom(argv));
  for (const line of report.lines) console.log(line);
  if (report.budgetsMissed.length > 0)
    console.log(`Budgets manqués sur les scénarios générés\u202f: ${report.budgetsMissed.join('\u202f; ')}`);
  return report.budgetsMissed.length === 0;
}
