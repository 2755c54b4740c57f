/** Statistics the game tests share: chi-square goodness of fit and Monte Carlo confidence bands. */

/** Upper quantile of the standard normal for the usual levels. */
const Z = { 0.95: 1.959964, 0.99: 2.575829, 0.999: 3.290527 } as const;
export type Level = keyof typeof Z;

/** χ² critical value for df degrees of freedom (Wilson–Hilferty; within 0.5 % for df ≥ 2). */
export function chiSquareCritical(df: number, level: Level = 0.99): number {
  const z = Z[level];
  const h = 2 / (9 * df);
  return df * (1 - h + z * Math.sqrt(h)) ** 3;
}

/** χ² statistic of observed counts against expected probabilities (which must sum to 1). */
export function chiSquare(observed: readonly number[], probabilities: readonly number[]): number {
  const n = observed.reduce((a, b) => a + b, 0);
  return observed.reduce((sum, o, i) => {
    const e = n * probabilities[i]!;
    return sum + (o - e) ** 2 / e;
  }, 0);
}

/** True when the observed counts pass a χ² test at `level` against uniform or given probabilities. */
export function passesChiSquare(observed: readonly number[], probabilities?: readonly number[], level: Level = 0.99): boolean {
  const p = probabilities ?? observed.map(() => 1 / observed.length);
  return chiSquare(observed, p) < chiSquareCritical(observed.length - 1, level);
}

export interface Sample {
  n: number;
  mean: number;
  sd: number;
}

/** Mean and standard deviation of per-round returns (payout / stake). */
export function summarise(returns: readonly number[]): Sample {
  const n = returns.length;
  const mean = returns.reduce((a, b) => a + b, 0) / n;
  const variance = returns.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return { n, mean, sd: Math.sqrt(variance) };
}

/** The confidence band around an exact RTP that a sample mean must fall in. */
export function rtpBand(exactRtp: number, sample: Sample, level: Level = 0.99): [number, number] {
  const half = (Z[level] * sample.sd) / Math.sqrt(sample.n);
  return [exactRtp - half, exactRtp + half];
}

/** A seeded, fast float source for Monte Carlo runs (mulberry32); the real HMAC stream is tested separately. */
export function seededFloats(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
