/**
 * The Numenta Anomaly Benchmark's scoring (numenta/NAB v1.1, `nab/sweeper.py` and the
 * normalisation of `nab/runner.py`), for the anomaly detectors of the predictive analysis.
 *
 * A corpus folder holds `data/**.csv` (`timestamp,value`), `combined_windows.json` (labelled anomaly
 * windows per file, keys relative to `data/`) and `profiles.json` (the cost matrices). Per file:
 * - the first min(⌊0,15 n⌋, 0,15 × 5000) rows are a probation period, never scored;
 * - a detection in a window scores tpWeight × S(p) / S(−1), with S(p) = 2·sigmoid(−5p) − 1 and
 *   p = −(right − i + 1) / width its position (−1 at the window's first row); only the best (the
 *   earliest) detection of a window counts; a window without one costs −fnWeight;
 * - each detection outside the windows costs fpWeight × S(|i − right| / (width − 1)) measured from
 *   the end of the previous window (−1 when beyond three widths), or −fpWeight before any window.
 * The corpus score is normalised: 100 × (raw − null) / (perfect − null), where the null detector
 * misses every window and the perfect one scores tpWeight per window.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAnomalyDetector, type SignalProfile } from '../apps/server/src/modules/insights/anomalies.ts';

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

export function loadNabCorpus(dir: string): NabCorpus {
  const labels = JSON.parse(fs.readFileSync(path.join(dir, 'combined_windows.json'), 'utf8')) as Record<string, [string, string][]>;
  const rawProfiles = JSON.parse(fs.readFileSync(path.join(dir, 'profiles.json'), 'utf8')) as Record<string, { CostMatrix: CostMatrix }>;
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

export interface VigieRun {
  /** Rows where an anomaly was first raised, with its kind. */
  detections: { row: number; kind: string }[];
  ms: number;
  pushes: number;
}

/**
 * Vigie's detector, causally: the file at its native step, bucket by bucket (a missing row is a
 * gap), one fixed setting ('generic') for every file; a detection is the row of the bucket at which
 * an anomaly is first raised (never its estimated start, which would look ahead).
 */
export function runVigie(file: NabFile, profile: SignalProfile = 'generic'): VigieRun {
  const step = nativeStep(file.timestamps);
  const byTime = new Map<number, number>();
  file.timestamps.forEach((t, i) => byTime.set(t, i));
  const first = file.timestamps[0] as number;
  const last = file.timestamps.at(-1) as number;
  const started = performance.now();
  const detector = createAnomalyDetector({ stepMs: step, profile });
  const detections: { row: number; kind: string }[] = [];
  let pushes = 0;
  let nextRow = 0;
  for (let ts = first; ts <= last; ts += step) {
    const row = byTime.get(ts);
    const raised = detector.push(ts, row === undefined ? null : (file.values[row] as number));
    pushes += 1;
    while (nextRow < file.timestamps.length && (file.timestamps[nextRow] as number) < ts) nextRow += 1;
    for (const anomaly of raised) if (nextRow < file.timestamps.length) detections.push({ row: nextRow, kind: anomaly.kind });
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

export interface NabResult {
  profiles: string[];
  files: {
    name: string;
    rows: number;
    stepMs: number;
    windows: number;
    vigie: Record<string, FileScore>;
    threshold: Record<string, FileScore>;
    kinds: string[];
    firstDetections: string[];
    ms: number;
    pushes: number;
  }[];
  /** Normalised corpus scores per detector and profile. */
  normalised: Record<'null' | 'threshold' | 'vigie' | 'perfect', Record<string, number>>;
}

export function evaluateNab(dir: string): NabResult {
  const corpus = loadNabCorpus(dir);
  const profiles = Object.keys(corpus.profiles);
  const totals = { null: {}, threshold: {}, vigie: {}, perfect: {} } as Record<keyof NabResult['normalised'], Record<string, number>>;
  const files: NabResult['files'] = [];
  const windowCount = corpus.files.reduce((sum, f) => sum + f.windows.length, 0);
  for (const file of corpus.files) {
    const run = runVigie(file);
    const rowsDetected = run.detections.map((d) => d.row);
    const entry: NabResult['files'][number] = {
      name: file.name,
      rows: file.timestamps.length,
      stepMs: nativeStep(file.timestamps),
      windows: file.windows.length,
      vigie: {},
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
      const rows = sweep(file, cost);
      const add = (key: keyof NabResult['normalised'], score: number) => (totals[key][profile] = (totals[key][profile] ?? 0) + score);
      entry.vigie[profile] = scoreDetections(rows, rowsDetected, cost.fnWeight);
      entry.threshold[profile] = bestThreshold(file, cost).score;
      add('vigie', entry.vigie[profile].score);
      add('threshold', entry.threshold[profile].score);
      add('null', scoreDetections(rows, [], cost.fnWeight).score);
      add(
        'perfect',
        scoreDetections(
          rows,
          file.windows.map((w) => w.first),
          cost.fnWeight,
        ).score,
      );
    }
    files.push(entry);
  }
  const normalised = { null: {}, threshold: {}, vigie: {}, perfect: {} } as NabResult['normalised'];
  for (const profile of profiles) {
    const cost = corpus.profiles[profile] as CostMatrix;
    const base = totals.null[profile] ?? 0;
    const perfect = windowCount * cost.tpWeight;
    for (const key of Object.keys(totals) as (keyof NabResult['normalised'])[]) {
      normalised[key][profile] = (100 * ((totals[key][profile] ?? 0) - base)) / (perfect - base);
    }
  }
  return { profiles, files, normalised };
}

// -----------------------------------------------------------------------------------------------
// The report (French), for `npm run eval:predict`
// -----------------------------------------------------------------------------------------------

const NNBSP = '\u202f';
const frFormat = (n: number, digits: number) =>
  Number.isFinite(n)
    ? n
        .toLocaleString('fr-FR', { minimumFractionDigits: digits, maximumFractionDigits: digits })
        .replace(/[\u00a0 ]/g, NNBSP)
        .replace('-', '\u2212')
    : '—';
const frStep = (ms: number) => (ms >= 3_600_000 ? `${frFormat(ms / 3_600_000, 0)}${NNBSP}h` : `${frFormat(ms / 60_000, 0)}${NNBSP}min`);

const PROFILE_LABELS: Record<string, string> = {
  standard: 'standard',
  reward_low_FP_rate: 'peu de fausses alertes',
  reward_low_FN_rate: 'peu d’oublis',
};

/** The NAB part of the evaluation: the tables, and whether Vigie's standard score meets `budget`. */
export function nabReport(dir: string, budget: number): { lines: string[]; score: number; ok: boolean; ms: number; pushes: number } {
  const result = evaluateNab(dir);
  const profiles = result.profiles;
  const lines: string[] = [];
  lines.push(
    `Détection d’anomalies${NNBSP}: NAB (Numenta Anomaly Benchmark v1.1, ${result.files.length} fichiers de ${dir}), détecteur causal de Vigie au pas natif, profil «${NNBSP}generic${NNBSP}», un seul réglage pour tous les fichiers${NNBSP}; une détection est l’instant où une anomalie est levée`,
    '',
    '| fichier | pas | lignes | fenêtres | fenêtres trouvées | fausses alertes | score brut (standard) | seuil fixe optimisé | premières détections |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const f of result.files) {
    const s = f.vigie['standard'] as FileScore;
    const t = f.threshold['standard'] as FileScore;
    lines.push(
      `| ${f.name} | ${frStep(f.stepMs)} | ${frFormat(f.rows, 0)} | ${f.windows} | ${f.windows ? s.tp : '—'} | ${s.fp} | ${frFormat(s.score, 2)} | ${frFormat(t.score, 2)} | ${f.firstDetections.join(', ') || '—'} |`,
    );
  }
  lines.push(
    '',
    `| détecteur | ${profiles.map((p) => PROFILE_LABELS[p] ?? p).join(' | ')} |`,
    `|---|${profiles.map(() => '---|').join('')}`,
  );
  const row = (label: string, key: keyof NabResult['normalised']) =>
    `| ${label} | ${profiles.map((p) => frFormat(result.normalised[key][p] ?? Number.NaN, 1)).join(' | ')} |`;
  lines.push(
    row('nul (aucune détection)', 'null'),
    row('seuil fixe (haut et bas choisis après coup sur chaque fichier, optimiste)', 'threshold'),
    row('Vigie', 'vigie'),
    row('parfait (une détection au début de chaque fenêtre)', 'perfect'),
  );
  const score = result.normalised.vigie['standard'] ?? Number.NaN;
  const ok = score >= budget;
  const ms = result.files.reduce((sum, f) => sum + f.ms, 0);
  const pushes = result.files.reduce((sum, f) => sum + f.pushes, 0);
  lines.push('', `Score NAB standard de Vigie${NNBSP}: ${frFormat(score, 1)} — budget ≥ ${budget} ${ok ? 'tenu' : 'MANQUÉ'}`);
  return { lines, score, ok, ms, pushes };
}
