/**
 * Small robust statistics for the anomaly detectors: medians by selection on a scratch buffer,
 * quantiles, and a bounded ring of samples whose quantiles are recomputed on demand.
 */

/** Median of the first `n` values of `buffer`; reorders them. NaN when n = 0. */
export function medianInPlace(buffer: Float64Array, n: number): number {
  if (n <= 0) return Number.NaN;
  if (n <= 12) {
    // Insertion sort: the detectors' per-bucket medians are over a handful of values.
    for (let i = 1; i < n; i += 1) {
      const v = buffer[i] as number;
      let j = i - 1;
      while (j >= 0 && (buffer[j] as number) > v) {
        buffer[j + 1] = buffer[j] as number;
        j -= 1;
      }
      buffer[j + 1] = v;
    }
    const mid = n >> 1;
    return n % 2 === 1 ? (buffer[mid] as number) : ((buffer[mid - 1] as number) + (buffer[mid] as number)) / 2;
  }
  const upper = select(buffer, 0, n - 1, n >> 1);
  if (n % 2 === 1) return upper;
  let lower = -Infinity;
  for (let i = 0; i < n >> 1; i += 1) if ((buffer[i] as number) > lower) lower = buffer[i] as number;
  return (lower + upper) / 2;
}

/** Hoare's selection: the k-th smallest of buffer[lo..hi], leaving smaller values before it. */
function select(buffer: Float64Array, lo: number, hi: number, k: number): number {
  while (hi > lo) {
    const pivot = buffer[(lo + hi) >> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((buffer[i] as number) < pivot) i += 1;
      while ((buffer[j] as number) > pivot) j -= 1;
      if (i <= j) {
        const t = buffer[i] as number;
        buffer[i] = buffer[j] as number;
        buffer[j] = t;
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return buffer[k] as number;
  }
  return buffer[k] as number;
}

/** Median absolute deviation of the first `n` values around `center`; overwrites the buffer. */
export function madInPlace(buffer: Float64Array, n: number, center: number): number {
  for (let i = 0; i < n; i += 1) buffer[i] = Math.abs((buffer[i] as number) - center);
  return medianInPlace(buffer, n);
}

/** Quantile q in [0, 1] of an ascending array (linear interpolation); NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const position = Math.min(1, Math.max(0, q)) * (n - 1);
  const below = Math.floor(position);
  const above = Math.min(n - 1, below + 1);
  const a = sorted[below] as number;
  const b = sorted[above] as number;
  return a + (b - a) * (position - below);
}

export function median(values: readonly number[]): number {
  const buffer = Float64Array.from(values);
  return medianInPlace(buffer, buffer.length);
}

/**
 * Samples of a quantity over the last `span` additions (NaN ignored), one kept in `stride` so that at
 * most about `keep` (2 000 unless told) are stored, with quantiles computed on demand over at most `maxSorted` of them
 * evenly spread: a refresh costs the same at any step.
 */
export class SampleRing {
  private readonly values: Float64Array;
  private next = 0;
  private size = 0;
  private readonly scratch: Float64Array;
  private readonly stride: number;
  private seen = 0;

  constructor(span: number, maxSorted = 600, keep = 2000) {
    this.stride = Math.max(1, Math.ceil(span / keep));
    this.values = new Float64Array(Math.max(1, Math.ceil(span / this.stride)));
    this.scratch = new Float64Array(Math.min(this.values.length, maxSorted));
  }

  add(value: number): void {
    if (!Number.isFinite(value)) return;
    this.seen += 1;
    if ((this.seen - 1) % this.stride !== 0) return;
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.values.length;
    if (this.size < this.values.length) this.size += 1;
  }

  /** How many samples were offered (kept or not). */
  get count(): number {
    return Math.min(this.seen, this.size * this.stride);
  }

  /** The requested quantiles (NaN each while empty). */
  quantiles(qs: readonly number[]): number[] {
    if (this.size === 0) return qs.map(() => Number.NaN);
    const sorted = this.sorted();
    return qs.map((q) => quantileSorted(sorted, q));
  }

  /** The samples kept (at most `maxSorted`, evenly spread), ascending; valid until the next call. */
  sorted(): Float64Array {
    const take = Math.min(this.size, this.scratch.length);
    const stride = this.size / Math.max(1, take);
    const sorted = this.scratch.subarray(0, take);
    const start = this.size < this.values.length ? 0 : this.next;
    for (let i = 0; i < take; i += 1) sorted[i] = this.values[(start + Math.floor(i * stride)) % this.values.length] as number;
    return sorted.sort();
  }
}

/**
 * The value a sample exceeds with probability `p`, from its own history (ascending): the empirical
 * quantile while p is within the sample; beyond it, extreme-value theory's peaks over threshold
 * (as in the streaming detector SPOT of Siffer et al., 2017): the excesses over a high threshold
 * fitted with a generalised Pareto distribution by the method of moments, its shape kept within
 * ±0,5. Scale-free: a heavy-tailed history gets a higher threshold than a gaussian one of the same
 * spread. NaN when empty.
 */
export function tailQuantile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  // The peaks: the top 2 %, at least 20 values and at most a quarter of the history.
  const k = Math.max(1, Math.min(Math.floor(n / 4), Math.max(20, Math.round(0.02 * n))));
  if (p * n >= k) return quantileSorted(sorted, 1 - p);
  const u = sorted[n - k - 1] ?? (sorted[0] as number);
  let sum = 0;
  let squares = 0;
  for (let i = n - k; i < n; i += 1) {
    const y = (sorted[i] as number) - u;
    sum += y;
    squares += y * y;
  }
  const mean = sum / k;
  const variance = Math.max(0, squares / k - mean * mean);
  if (!(mean > 0)) return sorted[n - 1] as number;
  const ratio = variance > 0 ? (mean * mean) / variance : Infinity;
  const shape = Number.isFinite(ratio) ? Math.max(-0.5, Math.min(0.5, 0.5 * (1 - ratio))) : -0.5;
  const scale = Number.isFinite(ratio) ? 0.5 * mean * (ratio + 1) : 1.5 * mean;
  const odds = (p * n) / k;
  return Math.abs(shape) < 1e-6 ? u - scale * Math.log(odds) : u + (scale / shape) * (odds ** -shape - 1);
}
