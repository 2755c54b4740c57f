/** Exact rational arithmetic on BigInt, for RTP values that must not pick up floating-point error. */
export interface Fraction {
  n: bigint;
  d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

export function frac(n: bigint | number, d: bigint | number = 1n): Fraction {
  const num = BigInt(n);
  const den = BigInt(d);
  if (den === 0n) throw new Error("zero denominator");
  const g = gcd(num, den) || 1n;
  const sign = den < 0n ? -1n : 1n;
  return { n: (sign * num) / g, d: (sign * den) / g };
}

export const add = (a: Fraction, b: Fraction): Fraction => frac(a.n * b.d + b.n * a.d, a.d * b.d);
export const mul = (a: Fraction, b: Fraction): Fraction => frac(a.n * b.n, a.d * b.d);
export const equals = (a: Fraction, b: Fraction): boolean => a.n * b.d === b.n * a.d;

/** The nearest double (to 1e-18 before the final rounding), however large numerator and denominator get. */
export function toNumber(f: Fraction): number {
  const scale = 10n ** 18n;
  return Number((f.n * scale) / f.d) / 1e18;
}
