/**
 * The predictive analysis judged on an independent labelled set laid out like ../shared/data/coldchain
 * (its README.md and labels.json: 40 retail cold units — fridges, freezers, cold rooms — each sampled
 * at 1, 5, 10 and 15 min, `unit-XX-<cadence>min.csv`, header `time,temperature`), built by another
 * physical model than bench/predict's. Each file is replayed through the same path as the generated
 * scenarios (evaluate.ts: `computeInsights`, fed the minute means of the last seven days that have
 * arrived by `now`, each reading arriving at its own time) with a rule « above the unit's limitC ».
 *
 * What counts (as the set's README says, and as evaluate.ts counts on the scenarios):
 * - compressor stop, door ajar, weakening compressor: a « dépassement prévu » given at least 30 min
 *   before the true crossing, with an eta within max(30 min, half the time left) of it; origins every
 *   `stepMs` from the failure's start (hourly earlier than 6 h before a weakening's crossing); the
 *   lead is the crossing minus the first such origin (the first, kept or not, as in evaluate.ts);
 * - healthy units: every `everyMs` over their last two days; failing units: ten minutes before their
 *   failure, then every `everyMs` back over six hours. Any « dépassement prévu » there is a false alarm
 *   (a healthy unit's probe stays 0.3 K under its limit, and before the failure nothing was failing).
 *
 * Nothing of the analysis is chosen on this set: its settings are production's, chosen on the
 * generated scenarios and on NAB. So no unit needs to be left out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { spreadJobs } from './spread.ts';
import { HOUR, MINUTE } from './cabinet.ts';
import { analyse, integerOption, limitRule, minuteMeans } from './evaluate.ts';
import type { SentReading } from './sampling.ts';
import { frenchNumber, NBSP, NNBSP } from '../french.ts';

export const CADENCES = [1, 5, 10, 15] as const;
export type Appliance = 'fridge' | 'freezer' | 'cold_room';
export type Failure = 'compressor_stop' | 'door_ajar' | 'weakening' | 'none';
const FAILURES: readonly Failure[] = ['compressor_stop', 'door_ajar', 'weakening', 'none'];
const APPLIANCES: readonly Appliance[] = ['fridge', 'freezer', 'cold_room'];

/** One file's entry of labels.json (the fields read here). */
export interface ColdchainLabel {
  unit: string;
  kind: Appliance;
  limitC: number;
  cadenceMin: number;
  failure: Failure;
  failureStart: string | null;
  crossing: string | null;
}

export const FAILURE_LABELS: Record<Failure, string> = {
  compressor_stop: 'arrêt du compresseur',
  door_ajar: 'porte entrouverte',
  weakening: 'compresseur qui faiblit',
  none: 'appareil sain',
};
const APPLIANCE_LABELS: Record<Appliance, string> = { fridge: 'réfrigérateur', freezer: 'congélateur', cold_room: 'chambre froide' };
const APPLIANCE_PLURALS: Record<Appliance, string> = { fridge: 'réfrigérateurs', freezer: 'congélateurs', cold_room: 'chambres froides' };

const LEAD_MIN = 30 * MINUTE;
const BUDGET_LEAD_MEDIAN = 60 * MINUTE;
/** The issue's « ≥ 3 of 4 weakening compressors », on ten units: 75 % of them, per cadence. */
const WEAKENING_SHARE = 3 / 4;
/** Analysed every so often before a weakening's last six hours, as evaluate.ts does. */
const SLOW_BEFORE_MS = 6 * HOUR;
/** The stretches searched for false alarms. */
const HEALTHY_SPAN_MS = 48 * HOUR;
const BEFORE_SPAN_MS = 6 * HOUR;
const DEFAULT_STEP_MIN = 10;
const DEFAULT_EVERY_MIN = 60;

const fmt = (n: number, digits = 0) => frenchNumber(n, digits);
const minutes = (ms: number | null) => (ms !== null && Number.isFinite(ms) ? `${fmt(ms / MINUTE)}${NBSP}min` : '—');
const median = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** The set's folder: `--coldchain DIR`, by default ../shared/data/coldchain beside the repository; exits saying what is missing. */
export function coldchainDir(argv: readonly string[], root: string): string {
  const i = argv.indexOf('--coldchain');
  const given = i >= 0 ? argv[i + 1] : undefined;
  if (i >= 0 && (!given || given.startsWith('--'))) {
    console.error('--coldchain attend un dossier (par exemple\u202f: --coldchain ../shared/data/coldchain).');
    process.exit(1);
  }
  const dir = given ? path.resolve(process.cwd(), given) : path.resolve(root, '../shared/data/coldchain');
  if (!fs.existsSync(path.join(dir, 'labels.json'))) {
    console.error(
      `Jeu «\u202fcoldchain\u202f» introuvable\u202f: ${path.join(dir, 'labels.json')} n’existe pas (attendu\u202f: labels.json et unit-XX-<pas>min.csv, comme ../shared/data/coldchain). Indiquez le dossier avec --coldchain DIR.`,
    );
    process.exit(1);
  }
  return dir;
}

/** labels.json's files, checked; exits saying what is wrong. */
export function readLabels(dir: string): Map<string, ColdchainLabel> {
  const fail = (why: string): never => {
    console.error(`Jeu «\u202fcoldchain\u202f» illisible (${dir})\u202f: ${why}`);
    process.exit(1);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(dir, 'labels.json'), 'utf8'));
  } catch (error) {
    return fail(`labels.json n’est pas du JSON (${(error as Error).message}).`);
  }
  const files = (parsed as { files?: Record<string, Partial<ColdchainLabel>> } | null)?.files;
  if (!files || typeof files !== 'object') return fail('labels.json n’a pas de champ «\u202ffiles\u202f».');
  const labels = new Map<string, ColdchainLabel>();
  for (const [name, entry] of Object.entries(files)) {
    const ok =
      typeof entry.unit === 'string' &&
      APPLIANCES.includes(entry.kind as Appliance) &&
      typeof entry.limitC === 'number' &&
      typeof entry.cadenceMin === 'number' &&
      FAILURES.includes(entry.failure as Failure) &&
      (entry.failure === 'none' || (typeof entry.failureStart === 'string' && typeof entry.crossing === 'string'));
    if (!ok) fail(`entrée «\u202f${name}\u202f» incomplète (unit, kind, limitC, cadenceMin, failure, failureStart, crossing).`);
    if (!fs.existsSync(path.join(dir, name))) fail(`${name} est décrit dans labels.json mais absent du dossier.`);
    labels.set(name, entry as ColdchainLabel);
  }
  if (labels.size === 0) fail('labels.json ne décrit aucun fichier.');
  return labels;
}

/** A file's readings, in time order, each arriving when it was measured. */
export function readUnit(file: string): SentReading[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const readings: SentReading[] = [];
  for (const line of lines.slice(1)) {
    const [time, temperature] = line.split(',');
    const ts = Date.parse(time ?? '');
    const value = Number(temperature);
    if (Number.isFinite(ts) && temperature !== undefined && temperature.trim() !== '' && Number.isFinite(value))
      readings.push({ ts, value, arrival: ts });
  }
  return readings.sort((a, b) => a.ts - b.ts);
}

/** What a worker is asked: one file. */
export interface ColdchainJob {
  dir: string;
  file: string;
  label: ColdchainLabel;
  stepMs: number;
  everyMs: number;
}

export interface UnitOutcome {
  file: string;
  unit: string;
  appliance: Appliance;
  failure: Failure;
  cadence: number;
  /** From the failure's start to the true crossing. */
  crossingMs: number | null;
  /** Some origin of the grid lies 30 min or more before the crossing. */
  reachable: boolean;
  /** Crossing minus the first origin whose forecast counts. */
  leadMs: number | null;
  /** When none counts: crossing minus the first origin with a fitting eta given less than 30 min ahead. */
  lateMs: number | null;
  /** « Dépassements prévus » after the failure's start whose eta missed the window, before the first counting one. */
  offTarget: number;
  /** After the failure's start, analyses made until the first counting one. */
  evaluations: number;
  /** Analyses searched for false alarms: a healthy unit's last two days, the six hours before a failure. */
  watched: number;
  falseBreaches: number;
  /** The first false ones (ISO instant → eta), for --verbose. */
  falseAt: string[];
  ms: number;
}

/** One file replayed through the production analysis. */
export function replayUnit(job: ColdchainJob): UnitOutcome {
  const started = performance.now();
  const { label } = job;
  const readings = readUnit(path.join(job.dir, job.file));
  const minutesIn = minuteMeans(readings);
  const rule = limitRule(label.limitC);
  const onset = label.failureStart === null ? null : Date.parse(label.failureStart);
  const crossing = label.crossing === null ? null : Date.parse(label.crossing);
  const last = readings.at(-1)?.ts ?? 0;
  const outcome: UnitOutcome = {
    file: job.file,
    unit: label.unit,
    appliance: label.kind,
    failure: label.failure,
    cadence: label.cadenceMin,
    crossingMs: onset !== null && crossing !== null ? crossing - onset : null,
    reachable: onset !== null && crossing !== null && crossing - (onset + job.stepMs) >= LEAD_MIN,
    leadMs: null,
    lateMs: null,
    offTarget: 0,
    evaluations: 0,
    watched: 0,
    falseBreaches: 0,
    falseAt: [],
    ms: 0,
  };
  const watch = (now: number) => {
    outcome.watched += 1;
    const breach = analyse(minutesIn, now, rule).insights.breach;
    if (!breach) return;
    outcome.falseBreaches += 1;
    if (outcome.falseAt.length < 3) outcome.falseAt.push(`${new Date(now).toISOString().slice(5, 16)} → ${breach.eta.slice(11, 16)}`);
  };

  if (onset === null || crossing === null) {
    for (let now = last - HEALTHY_SPAN_MS + job.everyMs; now <= last; now += job.everyMs) watch(now);
    outcome.ms = performance.now() - started;
    return outcome;
  }
  // Ten minutes before the failure (as evaluate.ts checks its scenarios), then every `everyMs` back over six hours.
  for (let now = onset - 10 * MINUTE; now > onset - BEFORE_SPAN_MS; now -= job.everyMs) watch(now);

  const times: number[] = [];
  const dense = label.failure === 'weakening' ? crossing - SLOW_BEFORE_MS : onset;
  for (let now = onset + HOUR; now < dense; now += HOUR) times.push(now);
  for (let now = Math.max(onset + job.stepMs, dense); now < crossing; now += job.stepMs) times.push(now);
  for (const now of times) {
    outcome.evaluations += 1;
    const breach = analyse(minutesIn, now, rule).insights.breach;
    if (!breach) continue;
    const eta = Date.parse(breach.eta);
    const fits = Math.abs(eta - crossing) <= Math.max(30 * MINUTE, (crossing - now) / 2);
    if (fits && crossing - now >= LEAD_MIN) {
      outcome.leadMs = crossing - now;
      break;
    }
    if (fits) outcome.lateMs ??= crossing - now;
    else outcome.offTarget += 1;
  }
  outcome.ms = performance.now() - started;
  return outcome;
}

export interface ColdchainOptions {
  dir: string;
  /** Between origins after the failure's start. */
  stepMs: number;
  /** Between origins searched for false alarms. */
  everyMs: number;
  workers: number;
  verbose: boolean;
  /** Only the files whose name matches (`--coldchain-files REGEX`, e.g. \`-(5|15)min\`): a quicker look while working. */
  files: RegExp | null;
}

/** `--coldchain DIR`, `--coldchain-step MIN` (10), `--coldchain-every MIN` (60), `--workers N`, `--verbose`. */
export function coldchainOptionsFrom(argv: readonly string[], root: string): ColdchainOptions {
  return {
    dir: coldchainDir(argv, root),
    stepMs: integerOption(argv, '--coldchain-step', DEFAULT_STEP_MIN, 1) * MINUTE,
    everyMs: integerOption(argv, '--coldchain-every', DEFAULT_EVERY_MIN, 1) * MINUTE,
    workers: integerOption(argv, '--workers', Math.min(4, availableParallelism()), 1),
    verbose: argv.includes('--verbose'),
    files: filesOption(argv),
  };
}

function filesOption(argv: readonly string[]): RegExp | null {
  const i = argv.indexOf('--coldchain-files');
  if (i < 0) return null;
  const given = argv[i + 1] ?? '';
  try {
    return new RegExp(given);
  } catch {
    console.error(`--coldchain-files attend une expression régulière sur les noms de fichiers (reçu\u202f: «\u202f${given}\u202f»).`);
    process.exit(1);
  }
}

function replayAll(jobs: ColdchainJob[], workers: number): Promise<UnitOutcome[]> {
  return spreadJobs(jobs, workers, import.meta.url, 'coldchain-worker', replayUnit);
}

export interface ColdchainReport {
  lines: string[];
  budgetsMissed: string[];
  outcomes: UnitOutcome[];
}

export async function evaluateColdchain(options: ColdchainOptions): Promise<ColdchainReport> {
  const started = performance.now();
  const labels = readLabels(options.dir);
  // The costliest first (a minute's cadence, the healthy units' two days), for the threads to end together.
  const cost = (l: ColdchainLabel) => (l.failure === 'none' ? 3 : 1) / l.cadenceMin;
  const jobs = [...labels]
    .filter(([file]) => options.files === null || options.files.test(file))
    .sort(([, a], [, b]) => cost(b) - cost(a))
    .map(([file, label]) => ({ dir: options.dir, file, label, stepMs: options.stepMs, everyMs: options.everyMs }));
  const outcomes = await replayAll(jobs, options.workers);
  const order = (o: UnitOutcome) => FAILURES.indexOf(o.failure) * 1e6 + o.cadence * 1e3 + Number(o.unit.replace(/\D/g, '') || 0);
  outcomes.sort((a, b) => order(a) - order(b));
  const units = [...new Map(outcomes.map((o) => [o.unit, o])).values()];
  const appliances = APPLIANCES.flatMap((kind) => {
    const of = units.filter((o) => o.appliance === kind).length;
    const limits = [...new Set([...labels.values()].filter((l) => l.kind === kind).map((l) => l.limitC))]
      .map((c) => `${c > 0 ? '+' : c < 0 ? '−' : ''}${fmt(Math.abs(c), Number.isInteger(c) ? 0 : 1)}${NBSP}°C`)
      .join(', ');
    return of === 0 ? [] : [`${of} ${of > 1 ? APPLIANCE_PLURALS[kind] : APPLIANCE_LABELS[kind]} (limite ${limits})`];
  });
  const cadences = [...new Set(outcomes.map((o) => o.cadence))].sort((a, b) => a - b);
  const lines: string[] = [];
  const budgetsMissed: string[] = [];
  const step = minutes(options.stepMs);
  lines.push(
    `Jeu indépendant «\u202fcoldchain\u202f» (${options.dir})\u202f: ${units.length} unités (${appliances.join(', ')}), chacune relevée aux pas de ${cadences.join(', ')}${NBSP}min`,
    '',
    'Réglages\u202f: ceux de la production, choisis sur les scénarios du simulateur (bench/predict) et sur NAB, jamais sur ces unités, et les mêmes pour toutes\u202f: chaque unité est jugée avec des réglages choisis sans elle (rien à laisser de côté). Ne s’ajustent, comme en production, que les modèles du capteur, sur ses seules lectures passées (Holt-Winters, courbe de réchauffement).',
    `Rejeu\u202f: chaque lecture arrive à son heure\u202f; à chaque origine, computeInsights reçoit les moyennes par minute des 7 derniers jours et la règle «\u202fau-dessus de\u202f» la limite de l’unité (limitC de labels.json).`,
    `Prévue\u202f: «\u202fdépassement prévu\u202f» donné ≥ 30${NBSP}min avant le franchissement réel, heure prévue à max(30${NBSP}min, la moitié du temps restant) près. Origines toutes les ${step} dès le début de la panne + ${step} (\`--coldchain-step MIN\`), toutes les heures avant les 6 dernières heures d’un compresseur qui faiblit\u202f; avance = franchissement − première origine prévue (la première, qu’elle se maintienne ou non, comme sur les scénarios). Hors d’atteinte\u202f: franchissement moins de 30${NBSP}min après la première origine. Trop tard\u202f: heure juste, mais donnée moins de 30${NBSP}min avant.`,
    '',
    '| panne | pas | prévues ≥ 30 min | réfrigérateurs · congélateurs · chambres froides | avance médiane | avance minimale | hors d’atteinte | trop tard | prévisions hors fenêtre | franchissement après le début (médiane) | budget |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const failure of FAILURES) {
    if (failure === 'none') continue;
    for (const cadence of cadences) {
      const runs = outcomes.filter((o) => o.failure === failure && o.cadence === cadence);
      if (runs.length === 0) continue;
      const found = runs.filter((o) => o.leadMs !== null);
      const leads = runs.map((o) => o.leadMs ?? 0);
      const byAppliance = APPLIANCES.map((kind) => {
        const of = runs.filter((o) => o.appliance === kind);
        return of.length === 0 ? '—' : `${of.filter((o) => o.leadMs !== null).length}/${of.length}`;
      }).join(' · ');
      const at = `${FAILURE_LABELS[failure]} au pas de ${cadence}${NBSP}min`;
      let budget: string;
      if (failure === 'weakening') {
        const needed = Math.ceil(WEAKENING_SHARE * runs.length - 1e-9);
        const ok = found.length >= needed;
        budget = `≥ ${needed} sur ${runs.length}\u202f: ${ok ? 'tenu' : 'MANQUÉ'}`;
        if (!ok) budgetsMissed.push(`${at}\u202f: ${found.length}/${runs.length} prévus (budget ≥ 75${NNBSP}%, ${needed})`);
      } else {
        const everyOne = found.length === runs.length;
        const medianOk = median(leads) >= BUDGET_LEAD_MEDIAN;
        budget = everyOne && medianOk ? 'tenu' : 'MANQUÉ';
        if (!everyOne) budgetsMissed.push(`${at}\u202f: ${found.length}/${runs.length} prévus ≥ 30${NBSP}min avant (budget\u202f: tous)`);
        if (!medianOk) budgetsMissed.push(`${at}\u202f: avance médiane ${minutes(median(leads))} < ${minutes(BUDGET_LEAD_MEDIAN)}`);
      }
      lines.push(
        `| ${FAILURE_LABELS[failure]} | ${cadence}${NBSP}min | ${found.length}/${runs.length} | ${byAppliance} | ${minutes(median(leads))} | ${minutes(Math.min(...leads))} | ${runs.filter((o) => !o.reachable).length} | ${runs.filter((o) => o.leadMs === null && o.lateMs !== null).length} | ${runs.reduce((sum, o) => sum + o.offTarget, 0)} | ${minutes(median(runs.map((o) => o.crossingMs ?? Number.NaN)))} | ${budget} |`,
      );
    }
  }
  const every = minutes(options.everyMs);
  lines.push(
    '',
    `Avance\u202f: une unité non prévue compte 0 dans la médiane. Budgets, à chaque pas\u202f: arrêt du compresseur et porte entrouverte tous prévus ≥ 30${NBSP}min avant, avance médiane ≥ 60${NBSP}min (les unités hors d’atteinte comptent, comme le demande le ticket)\u202f; compresseur qui faiblit\u202f: «\u202f≥ 3 sur 4\u202f» du ticket lu comme ≥ 75${NNBSP}% des unités.`,
    '',
    `Fausses alertes\u202f: tout «\u202fdépassement prévu\u202f» sur une unité saine (ses 2 derniers jours, toutes les ${every}, \`--coldchain-every MIN\`) ou sur une unité en panne avant le début de sa panne (10${NBSP}min avant, puis toutes les ${every} sur les 6 heures d’avant).`,
    '',
    '| pas | unités saines\u202f: calculs | «\u202fdépassement prévu\u202f» à tort | unités concernées | unités en panne, avant la panne\u202f: calculs | «\u202fdépassement prévu\u202f» à tort | unités concernées | budget 0 |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const cadence of cadences) {
    const healthy = outcomes.filter((o) => o.failure === 'none' && o.cadence === cadence);
    const failing = outcomes.filter((o) => o.failure !== 'none' && o.cadence === cadence);
    const sum = (runs: UnitOutcome[], pick: (o: UnitOutcome) => number) => runs.reduce((total, o) => total + pick(o), 0);
    const named = (runs: UnitOutcome[]) =>
      runs
        .filter((o) => o.falseBreaches > 0)
        .map((o) => o.unit)
        .join(', ') || '—';
    const healthyFalse = sum(healthy, (o) => o.falseBreaches);
    const beforeFalse = sum(failing, (o) => o.falseBreaches);
    const ok = healthyFalse === 0 && beforeFalse === 0;
    if (healthyFalse > 0)
      budgetsMissed.push(
        `unités saines au pas de ${cadence}${NBSP}min\u202f: ${healthyFalse} «\u202fdépassement prévu\u202f» à tort (budget 0)`,
      );
    if (beforeFalse > 0)
      budgetsMissed.push(
        `unités en panne, avant la panne, au pas de ${cadence}${NBSP}min\u202f: ${beforeFalse} «\u202fdépassement prévu\u202f» à tort (budget 0)`,
      );
    lines.push(
      `| ${cadence}${NBSP}min | ${fmt(sum(healthy, (o) => o.watched))} | ${healthyFalse} | ${named(healthy)} | ${fmt(sum(failing, (o) => o.watched))} | ${beforeFalse} | ${named(failing)} | ${ok ? 'tenu' : 'MANQUÉ'} |`,
    );
  }
  if (options.verbose) {
    lines.push(
      '',
      '| unité | appareil | panne | pas | franchissement après le début | avance | trop tard | hors fenêtre | calculs après le début | fausses alertes (instant → heure prévue) | durée |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const o of outcomes)
      lines.push(
        `| ${o.unit} | ${APPLIANCE_LABELS[o.appliance]} | ${FAILURE_LABELS[o.failure]} | ${o.cadence}${NBSP}min | ${minutes(o.crossingMs)}${o.reachable || o.failure === 'none' ? '' : ' (hors d’atteinte)'} | ${minutes(o.leadMs)} | ${minutes(o.lateMs)} | ${o.offTarget} | ${o.evaluations} | ${o.falseBreaches}/${o.watched}${o.falseAt.length ? ` (${o.falseAt.join(', ')})` : ''} | ${fmt(o.ms / 1000, 1)}${NBSP}s |`,
      );
  }
  const analyses = outcomes.reduce((sum, o) => sum + o.evaluations + o.watched, 0);
  const perCadence = cadences
    .map(
      (c) => `${fmt(outcomes.filter((o) => o.cadence === c).reduce((sum, o) => sum + o.ms, 0) / 1000, 0)}${NBSP}s au pas de ${c}${NBSP}min`,
    )
    .join(', ');
  lines.push(
    '',
    `Coldchain\u202f: ${fmt(analyses)} analyses complètes (computeInsights) en ${fmt((performance.now() - started) / 1000, 1)}${NBSP}s sur ${options.workers} fil${options.workers > 1 ? 's' : ''} (\`--workers N\`)\u202f; temps de calcul\u202f: ${perCadence}.`,
  );
  return { lines, budgetsMissed, outcomes };
}

/** The coldchain part of `npm run eval:predict`: prints its tables; false when a budget is missed. */
export async function printColdchainEvaluation(options: ColdchainOptions): Promise<boolean> {
  const report = await evaluateColdchain(options);
  for (const line of report.lines) console.log(line);
  if (report.budgetsMissed.length > 0)
    console.log(`Budgets manqués sur le jeu «\u202fcoldchain\u202f»\u202f: ${report.budgetsMissed.join('\u202f; ')}`);
  return report.budgetsMissed.length === 0;
}
