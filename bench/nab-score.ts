/**
 * The Numenta Anomaly Benchmark's scoring (numenta/NAB v1.1, `nab/sweeper.py` and the
 * normalisation of `nab/runner.py`), for the anomaly detectors of the predictive analysis.
 *
 * A corpus folder in NAB's layout holds `data/**.csv` (`timestamp,value`), the labelled anomaly
 * windows per file (keys relative to `data/`) in `labels/combined_windows.json` or
 * `combined_windows.json`, and the cost matrices in `config/profiles.json` or `profiles.json`
 * (NAB's own when absent). Per file:
 * - the first min(⌊0,15 n⌋, 0,15 × 5000) rows are a probation period, never scored;
 * - a detection in a window scores tpWeight × S(p) / S(−1), with S(p) = 2·sigmoid(−5p) − 1 and
 *   p = −(right − i + 1) / width its position (−1 at the window's first row); only the best (the
 *   earliest) detection of a window counts; a window without one costs −fnWeight;
 * - each detection outside the windows costs fpWeight × S(|i − right| / (width − 1)) measured from
 *   the end of the previous window (−1 when beyond three widths), or −fpWeight before any window.
 * The corpus score is normalised: 100 × (raw − null) / (perfect − null), where the null detector
 * misses every window and the perfect one scores tpWeight per window.
 *
 * Vigie's detector is scored twice: with its production settings, chosen with every file of
 * ../shared/data/nab in sight (in-sample there), and left one file out: each file scored with the
 * setting of a small grid that scores best on the other files, as a new customer's data will meet it.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_SETTINGS,
  type DetectorSettings,
  type SignalProfile,
  createAnomalyDetector,
} from '../apps/server/src/modules/insights/anomalies.ts';

export interface CostMatrix {
  tpWeight: number;
  fpWeight: number;
  fnWeight: number;
}

export interface NabFile {
  /** Path relative to `data/`, e.g. `realKnownCause/nyc_taxi.csv`. */
  name: string;
  timestamps: number[];
  values: number[];
  /** Labelled windows, as row indices (first and last row inside). */
  windows: { first: number; last: number }[];
}

export interface NabCorpus {
  files: NabFile[];
  profiles: Record<string, CostMatrix>;
}

const PROBATION_PERCENT = 0.15;

const NNBSP = '\u202f';
const frFormat = (n: number, digits: number) =>
  Number.isFinite(n)
    ? n
        .toLocaleString('fr-FR', { minimumFractionDigits: digits, maximumFractionDigits: digits })
        .replace(/[\u00a0 ]/g, NNBSP)
        .replace('-', '\u2212')
    : '—';
const frStep = (ms: number) => (ms >= 3_600_000 ? `${frFormat(ms / 3_600_000, 0)}${NNBSP}h` : `${frFormat(ms / 60_000, 0)}${NNBSP}min`);

/** `2014-04-10 16:15:00.000000` → epoch ms (NAB's timestamps are naive; read as UTC). */
function parseTime(text: string): number {
  const [date = '', time = '00:00:00'] = text.trim().split(/[ T]/);
  return Date.parse(`${date}T${time.slice(0, 12)}Z`);
}

function csvFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return csvFiles(full);
      return entry.name.endsWith('.csv') ? [full] : [];
    })
    .sort();
}

/** NAB's cost matrices (`config/profiles.json` of NAB v1.1), for a folder that does not hold its own. */
const NAB_PROFILES: Record<string, { CostMatrix: CostMatrix }> = {
  standard: { CostMatrix: { tpWeight: 1, fnWeight: 1, fpWeight: 0.11 } },
  reward_low_FP_rate: { CostMatrix: { tpWeight: 1, fnWeight: 1, fpWeight: 0.22 } },
  reward_low_FN_rate: { CostMatrix: { tpWeight: 1, fnWeight: 2, fpWeight: 0.11 } },
};

/** The first of these files (relative to `dir`) that exists. */
function firstExisting(dir: string, candidates: readonly string[]): string | null {
  for (const candidate of candidates) {
    const full = path.join(dir, candidate);
    if (fs.existsSync(full)) return full;
  }
  return null;
}

/**
 * A corpus in NAB's layout: `data/**.csv`, the windows in `labels/combined_windows.json` (NAB's
 * repository) or `combined_windows.json`, the cost matrices in `config/profiles.json` or
 * `profiles.json` (NAB's own when neither is there).
 */
export function loadNabCorpus(dir: string): NabCorpus {
  const labelsFile = firstExisting(dir, ['labels/combined_windows.json', 'combined_windows.json']);
  if (!labelsFile) throw new Error(`${dir} : ni labels/combined_windows.json ni combined_windows.json`);
  const labels = JSON.parse(fs.readFileSync(labelsFile, 'utf8')) as Record<string, [string, string][]>;
  const profilesFile = firstExisting(dir, ['config/profiles.json', 'profiles.json']);
  const rawProfiles = profilesFile
    ? (JSON.parse(fs.readFileSync(profilesFile, 'utf8')) as Record<string, { CostMatrix: CostMatrix }>)
    : NAB_PROFILES;
  const profiles = Object.fromEntries(Object.entries(rawProfiles).map(([name, p]) => [name, p.CostMatrix]));
  const dataDir = path.join(dir, 'data');
  const files: NabFile[] = [];
  for (const file of csvFiles(dataDir)) {
    const name = path.relative(dataDir, file).split(path.sep).join('/');
    const windows = labels[name];
    if (!windows) continue;
    const lines = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/).slice(1);
    const timestamps: number[] = [];
    const values: number[] = [];
    for (const line of lines) {
      const [ts = '', value = ''] = line.split(',');
      timestamps.push(parseTime(ts));
      values.push(Number(value));
    }
    files.push({
      name,
      timestamps,
      values,
      windows: windows.map(([from, to]) => {
        const start = parseTime(from);
        const end = parseTime(to);
        const first = timestamps.findIndex((t) => t >= start);
        let last = -1;
        for (let i = timestamps.length - 1; i >= 0; i -= 1) {
          if ((timestamps[i] as number) <= end) {
            last = i;
            break;
          }
        }
        return { first, last };
      }),
    });
  }
  return { files, profiles };
}

export function scaledSigmoid(position: number): number {
  if (position > 3) return -1;
  return 2 / (1 + Math.exp(5 * position)) - 1;
}

export const probationLength = (rows: number) => Math.min(Math.floor(PROBATION_PERCENT * rows), PROBATION_PERCENT * 5000);

/** Per row: the window it is in (index, or −1 outside, or −2 in probation) and the score a detection there would get. */
export interface SweepRow {
  window: number;
  score: number;
}

/** NAB's `calcSweepScore`: what a detection at each row would be worth under a cost matrix. */
export function sweep(file: NabFile, cost: CostMatrix): SweepRow[] {
  const n = file.timestamps.length;
  const probation = probationLength(n);
  const maxTp = scaledSigmoid(-1);
  const rows: SweepRow[] = [];
  let current = -1;
  let previous = -1;
  for (let i = 0; i < n; i += 1) {
    if (current < 0) {
      const next = file.windows.findIndex((w) => w.first === i);
      if (next >= 0) current = next;
    }
    let score: number;
    if (current >= 0) {
      const w = file.windows[current] as { first: number; last: number };
      const width = w.last - w.first + 1;
      score = (scaledSigmoid(-(w.last - i + 1) / width) * cost.tpWeight) / maxTp;
    } else if (previous < 0) {
      score = -cost.fpWeight;
    } else {
      const w = file.windows[previous] as { first: number; last: number };
      const width = w.last - w.first + 1;
      score = scaledSigmoid(Math.abs(w.last - i) / (width - 1)) * cost.fpWeight;
    }
    rows.push({ window: i < probation ? -2 : current, score });
    if (current >= 0 && (file.windows[current] as { last: number }).last === i) {
      previous = current;
      current = -1;
    }
  }
  return rows;
}

export interface FileScore {
  score: number;
  /** Windows with a detection, windows missed, detections outside the windows (after probation). */
  tp: number;
  fn: number;
  fp: number;
}

/** NAB's `calcScoreByThreshold` at a threshold that keeps exactly the detections given (row indices). */
export function scoreDetections(rows: SweepRow[], detections: Iterable<number>, fnWeight: number): FileScore {
  // Every window with a scored row starts as missed; its best detection replaces that.
  const windows = new Map<number, number>();
  for (const row of rows) if (row.window >= 0 && !windows.has(row.window)) windows.set(row.window, -fnWeight);
  const detected = new Set<number>();
  let score = 0;
  let fp = 0;
  for (const i of new Set(detections)) {
    const row = rows[i];
    if (!row || row.window === -2) continue;
    if (row.window === -1) {
      score += row.score;
      fp += 1;
    } else {
      detected.add(row.window);
      windows.set(row.window, Math.max(windows.get(row.window) as number, row.score));
    }
  }
  for (const part of windows.values()) score += part;
  return { score, tp: detected.size, fn: windows.size - detected.size, fp };
}

export function scoreFile(file: NabFile, cost: CostMatrix, detections: Iterable<number>): FileScore {
  return scoreDetections(sweep(file, cost), detections, cost.fnWeight);
}

// -----------------------------------------------------------------------------------------------
// Detectors under test
// -----------------------------------------------------------------------------------------------

/** The file's step: the most frequent interval between rows. */
export function nativeStep(timestamps: readonly number[]): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < timestamps.length; i += 1) {
    const d = (timestamps[i] as number) - (timestamps[i - 1] as number);
    if (d > 0) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = -1;
  for (const [d, c] of counts) if (c > bestCount) [best, bestCount] = [d, c];
  return best;
}

/** Anomalies raised within this time of the previous raise are the same alarm (the detector's cool-down). */
const ALARM_COOL_DOWN_MS = 3_600_000;

export interface VigieRun {
  /** Rows where an anomaly was first raised, with its kind. */
  detections: { row: number; kind: string }[];
  ms: number;
  pushes: number;
}

/**
 * Vigie's detector, causally: the file's rows averaged into buckets of its native step (a bucket
 * without a row is a gap; rows a little early or late land in their bucket), one setting for every
 * file; a detection is the last row the detector had seen when an anomaly was first raised (never
 * its estimated start, which would look ahead), or the next row when it was raised in a gap.
 */
export function runVigie(file: NabFile, settings?: Partial<DetectorSettings>, profile: SignalProfile = 'generic'): VigieRun {
  const step = nativeStep(file.timestamps);
  const first = file.timestamps[0] as number;
  const last = file.timestamps.at(-1) as number;
  const started = performance.now();
  const detector = createAnomalyDetector({ stepMs: step, profile, settings });
  const detections: { row: number; kind: string }[] = [];
  const n = file.timestamps.length;
  let pushes = 0;
  let row = 0;
  let lastRaise = -Infinity;
  for (let ts = first; ts <= last; ts += step) {
    let sum = 0;
    let count = 0;
    while (row < n && (file.timestamps[row] as number) < ts + step) {
      const v = file.values[row] as number;
      if (Number.isFinite(v)) {
        sum += v;
        count += 1;
      }
      row += 1;
    }
    const raised = detector.push(ts, count > 0 ? sum / count : null);
    pushes += 1;
    // The latest row seen (this bucket's last), or the next one after a gap.
    const at = count > 0 ? row - 1 : row;
    if (raised.length === 0 || at >= n) continue;
    // Kinds raised within an hour of the last raise describe the same event: one alarm.
    const ongoing = ts - lastRaise < ALARM_COOL_DOWN_MS;
    lastRaise = ts;
    if (!ongoing) detections.push({ row: at, kind: (raised[0] as { kind: string }).kind });
  }
  return { detections, ms: performance.now() - started, pushes };
}

/** Rising edges of « value above hi or below lo ». */
function thresholdDetections(values: readonly number[], lo: number, hi: number): number[] {
  const out: number[] = [];
  let was = false;
  values.forEach((v, i) => {
    const is = v > hi || v < lo;
    if (is && !was) out.push(i);
    was = is;
  });
  return out;
}

/**
 * The static threshold detector with its limits chosen afterwards, per file, to maximise its NAB
 * score on that very file: an optimistic reference (no detector could choose them beforehand).
 */
export function bestThreshold(file: NabFile, cost: CostMatrix): { score: FileScore; lo: number; hi: number } {
  const rows = sweep(file, cost);
  const sorted = [...file.values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] as number;
  const levels = [0, 0.001, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5];
  const los = [-Infinity, ...levels.map((q) => at(q) - 1e-9)];
  const his = [Infinity, ...levels.map((q) => at(1 - q) + 1e-9)];
  let best: { score: FileScore; lo: number; hi: number } | null = null;
  for (const lo of los) {
    for (const hi of his) {
      if (lo >= hi) continue;
      const score = scoreDetections(rows, thresholdDetections(file.values, lo, hi), cost.fnWeight);
      if (!best || score.score > best.score.score) best = { score, lo, hi };
    }
  }
  return best as { score: FileScore; lo: number; hi: number };
}

// -----------------------------------------------------------------------------------------------
// The evaluation
// -----------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;

/** One setting of the grid the leave-one-file-out evaluation chooses from. */
export interface GridSetting {
  label: string;
  settings: Pick<DetectorSettings, 'falseAlarmMs' | 'patternZ' | 'spikeZ'>;
}

/**
 * The generic profile's settings tried: the time between false alarms its thresholds aim at
 * (read from each series' own tail), and the smallest departure (in robust standard deviations)
 * worth a `pattern` (one bucket: twice that). Least sensitive first: among equal scores, the one
 * that raises the fewest alarms wins.
 */
export const NAB_GRID: readonly GridSetting[] = [30, 14, 7, 3].flatMap((days) =>
  [6, 4.5].map((z) => ({
    label: `${days}${NNBSP}j, z${NNBSP}≥${NNBSP}${frFormat(z, z % 1 ? 1 : 0)}`,
    settings: { falseAlarmMs: days * DAY_MS, patternZ: z, spikeZ: 2 * z },
  })),
);

/** The grid's index of the generic profile's defaults, −1 when they are not in the grid. */
function defaultIndex(grid: readonly GridSetting[]): number {
  const d = DEFAULT_SETTINGS.generic;
  return grid.findIndex(
    (g) => g.settings.falseAlarmMs === d.falseAlarmMs && g.settings.patternZ === d.patternZ && g.settings.spikeZ === d.spikeZ,
  );
}

interface FileRun {
  detections: { row: number; kind: string }[];
  /** Raw score per cost profile. */
  scores: Record<string, FileScore>;
  ms: number;
  pushes: number;
}

export interface NabResult {
  profiles: string[];
  grid: readonly GridSetting[];
  /** The grid setting that is the production default (−1: not in the grid, run on its own). */
  defaultSetting: number;
  /** The setting the choice below picks with every file in sight, per profile. */
  allFilesChoice: Record<string, number>;
  files: {
    name: string;
    rows: number;
    stepMs: number;
    windows: number;
    /** The production defaults, scored on the file (in-sample on ../shared/data/nab, where they were chosen). */
    vigie: Record<string, FileScore>;
    /** Leave-one-file-out: the grid setting chosen on the other files, and its score on this one. */
    lofo: Record<string, FileScore>;
    lofoSetting: Record<string, number>;
    threshold: Record<string, FileScore>;
    kinds: string[];
    firstDetections: string[];
    ms: number;
    pushes: number;
  }[];
  /** Normalised corpus scores per detector and profile. */
  normalised: Record<'null' | 'threshold' | 'vigie' | 'lofo' | 'perfect', Record<string, number>>;
  /** Time and buckets of every run (the whole grid). */
  ms: number;
  pushes: number;
}

function runScored(file: NabFile, corpus: NabCorpus, rows: Record<string, SweepRow[]>, settings?: Partial<DetectorSettings>): FileRun {
  const run = runVigie(file, settings);
  const detected = run.detections.map((d) => d.row);
  const scores: Record<string, FileScore> = {};
  for (const [profile, cost] of Object.entries(corpus.profiles))
    scores[profile] = scoreDetections(rows[profile] as SweepRow[], detected, cost.fnWeight);
  return { detections: run.detections, scores, ms: run.ms, pushes: run.pushes };
}

/**
 * The grid setting with the best total score on the files kept (all but `left`, −1 for none):
 * ties go to the other profiles' totals, then to the grid's order.
 */
export function chooseSetting(runs: readonly FileRun[][], profiles: readonly string[], profile: string, left: number): number {
  const order = [profile, ...profiles.filter((p) => p !== profile)];
  const total = (g: number, p: string) =>
    runs.reduce((sum, fileRuns, f) => (f === left ? sum : sum + ((fileRuns[g] as FileRun).scores[p] as FileScore).score), 0);
  let best = -1;
  let bestTotals: number[] = [];
  for (let g = 0; g < (runs[0]?.length ?? 0); g += 1) {
    const totals = order.map((p) => total(g, p));
    const differ = totals.findIndex((t, i) => Math.abs(t - (bestTotals[i] ?? -Infinity)) > 1e-9);
    if (best < 0 || (differ >= 0 && (totals[differ] as number) > (bestTotals[differ] as number))) {
      best = g;
      bestTotals = totals;
    }
  }
  return best;
}

export function evaluateNab(dir: string, grid: readonly GridSetting[] = NAB_GRID): NabResult {
  const corpus = loadNabCorpus(dir);
  const profiles = Object.keys(corpus.profiles);
  const keys = ['null', 'threshold', 'vigie', 'lofo', 'perfect'] as const;
  const totals = Object.fromEntries(keys.map((k) => [k, {}])) as Record<(typeof keys)[number], Record<string, number>>;
  const add = (key: (typeof keys)[number], profile: string, score: number) => (totals[key][profile] = (totals[key][profile] ?? 0) + score);
  const windowCount = corpus.files.reduce((sum, f) => sum + f.windows.length, 0);
  const defaultSetting = defaultIndex(grid);
  const sweeps = corpus.files.map((file) => Object.fromEntries(profiles.map((p) => [p, sweep(file, corpus.profiles[p] as CostMatrix)])));
  // Every file under every setting of the grid (and under the defaults, when they are not in it).
  const runs = corpus.files.map((file, f) => grid.map((g) => runScored(file, corpus, sweeps[f] as Record<string, SweepRow[]>, g.settings)));
  const defaults = corpus.files.map((file, f) =>
    defaultSetting >= 0 ? (runs[f]?.[defaultSetting] as FileRun) : runScored(file, corpus, sweeps[f] as Record<string, SweepRow[]>),
  );
  const allFilesChoice = Object.fromEntries(profiles.map((p) => [p, chooseSetting(runs, profiles, p, -1)]));
  const files: NabResult['files'] = corpus.files.map((file, f) => {
    const run = defaults[f] as FileRun;
    const entry: NabResult['files'][number] = {
      name: file.name,
      rows: file.timestamps.length,
      stepMs: nativeStep(file.timestamps),
      windows: file.windows.length,
      vigie: run.scores,
      lofo: {},
      lofoSetting: {},
      threshold: {},
      kinds: [...new Set(run.detections.map((d) => d.kind))],
      firstDetections: run.detections
        .slice(0, 3)
        .map((d) => `${new Date(file.timestamps[d.row] as number).toISOString().slice(0, 16).replace('T', ' ')} ${d.kind}`),
      ms: run.ms,
      pushes: run.pushes,
    };
    for (const profile of profiles) {
      const cost = corpus.profiles[profile] as CostMatrix;
      const rows = (sweeps[f] as Record<string, SweepRow[]>)[profile] as SweepRow[];
      const chosen = chooseSetting(runs, profiles, profile, f);
      entry.lofoSetting[profile] = chosen;
      entry.lofo[profile] = (runs[f]?.[chosen] as FileRun).scores[profile] as FileScore;
      entry.threshold[profile] = bestThreshold(file, cost).score;
      add('vigie', profile, (entry.vigie[profile] as FileScore).score);
      add('lofo', profile, (entry.lofo[profile] as FileScore).score);
      add('threshold', profile, entry.threshold[profile].score);
      add('null', profile, scoreDetections(rows, [], cost.fnWeight).score);
      add(
        'perfect',
        profile,
        scoreDetections(
          rows,
          file.windows.map((w) => w.first),
          cost.fnWeight,
        ).score,
      );
    }
    return entry;
  });
  const normalised = Object.fromEntries(keys.map((k) => [k, {}])) as NabResult['normalised'];
  for (const profile of profiles) {
    const cost = corpus.profiles[profile] as CostMatrix;
    const base = totals.null[profile] ?? 0;
    const perfect = windowCount * cost.tpWeight;
    for (const key of keys) normalised[key][profile] = (100 * ((totals[key][profile] ?? 0) - base)) / (perfect - base);
  }
  const all = runs.flat();
  return {
    profiles,
    grid,
    defaultSetting,
    allFilesChoice,
    files,
    normalised,
    ms: all.reduce((sum, r) => sum + r.ms, 0),
    pushes: all.reduce((sum, r) => sum + r.pushes, 0),
  };
}

// -----------------------------------------------------------------------------------------------
// The report (French), for `npm run eval:predict`
// -----------------------------------------------------------------------------------------------

/** « 30, 14, 7 ou 3 »: the distinct values, in French. */
function list(values: readonly number[]): string {
  const texts = [...new Set(values)].map((v) => frFormat(v, v % 1 ? 1 : 0));
  return texts.length > 1 ? `${texts.slice(0, -1).join(', ')} ou ${texts.at(-1) as string}` : (texts[0] ?? '');
}

const PROFILE_LABELS: Record<string, string> = {
  standard: 'standard',
  reward_low_FP_rate: 'peu de fausses alertes',
  reward_low_FN_rate: 'peu d’oublis',
};

/**
 * The NAB part of the evaluation: the tables, and whether Vigie's standard score, left one file out
 * (each file scored with the grid setting chosen on the others), meets `budget`.
 */
export function nabReport(
  dir: string,
  budget: number,
): { lines: string[]; score: number; inSample: number; ok: boolean; ms: number; pushes: number } {
  const result = evaluateNab(dir);
  const { profiles, grid } = result;
  const label = (g: number) => (g >= 0 ? (grid[g] as GridSetting).label : 'hors grille');
  const production = result.defaultSetting >= 0 ? label(result.defaultSetting) : 'réglages de production (hors grille)';
  const lines: string[] = [];
  lines.push(
    `Détection d’anomalies${NNBSP}: NAB (Numenta Anomaly Benchmark v1.1, ${result.files.length} fichiers de ${dir}), détecteur causal de Vigie au pas natif, profil «${NNBSP}generic${NNBSP}»${NNBSP}; une détection est l’instant où une anomalie est levée (les levées à moins d’une heure de la précédente sont la même alerte).`,
    `Deux scores${NNBSP}: «${NNBSP}réglages de production${NNBSP}» (${production}), ceux que la même règle choisit avec tous les fichiers de ../shared/data/nab en vue (sur ce dossier-là, un score sur les fichiers mêmes)${NNBSP}; «${NNBSP}fichier laissé de côté${NNBSP}», chaque fichier noté avec le réglage de la grille qui obtient le meilleur score sur les autres fichiers, comme des données inconnues le seront. Grille de ${grid.length} réglages${NNBSP}: une fausse alerte visée tous les ${list(grid.map((g) => g.settings.falseAlarmMs / DAY_MS))}${NNBSP}jours par statistique (seuils lus sur la queue de distribution de chaque série), écart minimal z de ${list(grid.map((g) => g.settings.patternZ))} écarts-types robustes.`,
    '',
    '| fichier | pas | lignes | fenêtres | fenêtres trouvées | fausses alertes | score brut, réglages de production | réglage choisi sans ce fichier | score brut, fichier laissé de côté | seuil fixe optimisé | premières détections |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const f of result.files) {
    const s = f.vigie['standard'] as FileScore;
    const l = f.lofo['standard'] as FileScore;
    const t = f.threshold['standard'] as FileScore;
    lines.push(
      `| ${f.name} | ${frStep(f.stepMs)} | ${frFormat(f.rows, 0)} | ${f.windows} | ${f.windows ? s.tp : '—'} | ${s.fp} | ${frFormat(s.score, 2)} | ${label(f.lofoSetting['standard'] ?? -1)} | ${frFormat(l.score, 2)} | ${frFormat(t.score, 2)} | ${f.firstDetections.join(', ') || '—'} |`,
    );
  }
  lines.push(
    '',
    `| détecteur | ${profiles.map((p) => PROFILE_LABELS[p] ?? p).join(' | ')} |`,
    `|---|${profiles.map(() => '---|').join('')}`,
  );
  const row = (text: string, key: keyof NabResult['normalised']) =>
    `| ${text} | ${profiles.map((p) => frFormat(result.normalised[key][p] ?? Number.NaN, 1)).join(' | ')} |`;
  lines.push(
    row('nul (aucune détection)', 'null'),
    row('seuil fixe (haut et bas choisis après coup sur chaque fichier, optimiste)', 'threshold'),
    row('Vigie, réglages de production', 'vigie'),
    row('Vigie, fichier laissé de côté (réglage choisi sur les autres fichiers)', 'lofo'),
    row('parfait (une détection au début de chaque fenêtre)', 'perfect'),
  );
  const chosen = result.allFilesChoice['standard'] ?? -1;
  lines.push(
    '',
    chosen === result.defaultSetting
      ? `Réglage choisi de la même façon sur tous les fichiers${NNBSP}: ${label(chosen)}, celui de production.`
      : `Réglage choisi de la même façon sur tous les fichiers${NNBSP}: ${label(chosen)}${NNBSP}; la production utilise ${production}.`,
  );
  const score = result.normalised.lofo['standard'] ?? Number.NaN;
  const inSample = result.normalised.vigie['standard'] ?? Number.NaN;
  const ok = score >= budget;
  lines.push(
    `Score NAB standard de Vigie, fichier laissé de côté${NNBSP}: ${frFormat(score, 1)} (réglages de production${NNBSP}: ${frFormat(inSample, 1)}) — budget ≥ ${budget} ${ok ? 'tenu' : 'MANQUÉ'}`,
  );
  return { lines, score, inSample, ok, ms: result.ms, pushes: result.pushes };
}
