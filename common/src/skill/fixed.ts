/**
 * Integer arithmetic for the skill simulations. Every value is an integer (positions in 1/256 pixel),
 * every operation is +, −, ×, an integer division or a comparison, and the random numbers come from an
 * integer generator seeded by the server. No Math.random, no trigonometry at run time: a browser and
 * the server compute the same bits for the same seed and inputs.
 */

/** Simulation steps per second; a step is one tick. */
export const TICKS_PER_SECOND = 60;

/** Both games play on a 480 × 640 pixel arena (portrait), scaled to fit the canvas. */
export const ARENA_WIDTH = 480;
export const ARENA_HEIGHT = 640;

/** Fixed-point scale: one pixel is 256 units. */
export const FP = 256;

/** Whole milliseconds of game time after `ticks` ticks (rounded down). */
export const ticksToMs = (ticks: number): number => Math.floor((ticks * 1000) / TICKS_PER_SECOND);

/** Integer division rounded toward zero (exact for |a| < 2⁵³, since IEEE division is correctly rounded). */
export const idiv = (a: number, b: number): number => Math.trunc(a / b);

export const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

/** floor(√n) for a non-negative integer below 2⁵³, corrected to the exact integer root. */
export function isqrt(n: number): number {
  if (n <= 0) return 0;
  let r = Math.floor(Math.sqrt(n));
  while (r * r > n) r -= 1;
  while ((r + 1) * (r + 1) <= n) r += 1;
  return r;
}

/** Squared distance between two points (integers; exact while coordinates stay below 2²⁶). */
export const dist2 = (ax: number, ay: number, bx: number, by: number): number => (ax - bx) * (ax - bx) + (ay - by) * (ay - by);

/** cos(k · 2π/32) × 1024 for k = 0…8: a quarter wave, written out so no engine's Math.cos is involved. */
const QUARTER_COS = [1024, 1004, 946, 851, 724, 569, 392, 200, 0] as const;
export const DIRECTIONS = 32;
export const UNIT = 1024;

/** cos of direction k (of 32) scaled by 1024 (never −0, which would print differently). */
export function cosDir(k: number): number {
  const d = ((k % DIRECTIONS) + DIRECTIONS) % DIRECTIONS;
  if (d <= 8) return QUARTER_COS[d]!;
  if (d <= 16) return 0 - QUARTER_COS[16 - d]!;
  if (d <= 24) return 0 - QUARTER_COS[d - 16]!;
  return QUARTER_COS[32 - d]!;
}

/** sin of direction k (of 32) scaled by 1024 (y grows downwards on screen). */
export const sinDir = (k: number): number => cosDir(k - 8);

/**
 * xoshiro128** on 32-bit integers (Math.imul and unsigned shifts only). Seeded from the first 128 bits
 * of the round's hex seed.
 */
export class SkillRng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seedHex: string) {
    if (!/^[0-9a-f]{32,}$/i.test(seedHex)) throw new Error("a skill seed is at least 32 hex digits");
    const word = (i: number) => Number.parseInt(seedHex.slice(i * 8, i * 8 + 8), 16) >>> 0;
    this.s0 = word(0);
    this.s1 = word(1);
    this.s2 = word(2);
    this.s3 = word(3);
    // The all-zero state would only ever produce zeros.
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 0x9e3779b9;
  }

  /** The next unsigned 32-bit integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = (this.s1 << 9) >>> 0;
    this.s2 = (this.s2 ^ this.s0) >>> 0;
    this.s3 = (this.s3 ^ this.s1) >>> 0;
    this.s1 = (this.s1 ^ this.s2) >>> 0;
    this.s0 = (this.s0 ^ this.s3) >>> 0;
    this.s2 = (this.s2 ^ t) >>> 0;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** An integer in [0, n) for 1 ≤ n ≤ 2²⁰ (the product stays exact below 2⁵³). */
  below(n: number): number {
    return Math.floor((this.nextU32() * n) / 4294967296);
  }

  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;
