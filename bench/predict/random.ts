/**
 * Repeatable randomness for the scenario generator: one stream per purpose, each named by the
 * parts it belongs to (seed base, fault, scenario, cadence…), so that adding a draw to one stream
 * never shifts another.
 */

/** A 32-bit hash of the parts (FNV-1a over their text), to seed one stream. */
export function streamSeed(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u0000')) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [low, high). */
  uniform(low: number, high: number): number;
  /** Standard normal. */
  normal(): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** An exponential wait of the given mean. */
  exponential(mean: number): number;
}

/** mulberry32, seeded by a hash of the parts. */
export function randomStream(...parts: (string | number)[]): Random {
  let state = streamSeed(...parts);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    uniform: (low, high) => low + (high - low) * next(),
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
    chance: (p) => next() < p,
    exponential: (mean) => -mean * Math.log(1 - next()),
  };
}
