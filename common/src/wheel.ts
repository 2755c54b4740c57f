import { SPIN_EXTRA_TURNS, WHEEL_PRIZES } from "./constants";

/**
 * The daily bonus wheel drawn from WHEEL_PRIZES: segment i spans [i·30°, (i+1)·30°) clockwise from
 * the pointer at the top when the wheel is at rest (rotation 0).
 */
export const WHEEL_SEGMENTS = WHEEL_PRIZES.length;
export const SEGMENT_DEGREES = 360 / WHEEL_SEGMENTS;

/**
 * The segment to land on: the server's segment when it holds the prize; otherwise one holding the prize
 * (the spec's rule for answers without a segment); otherwise a random one (`random` in [0, 1)).
 */
export function landingSegment(prize: number, segment: number | undefined, random: () => number = Math.random): number {
  if (segment !== undefined && Number.isInteger(segment) && WHEEL_PRIZES[segment] === prize) return segment;
  const matching = WHEEL_PRIZES.flatMap((p, i) => (p === prize ? [i] : []));
  const pool = matching.length > 0 ? matching : WHEEL_PRIZES.map((_, i) => i);
  return pool[Math.min(pool.length - 1, Math.floor(random() * pool.length))]!;
}

/**
 * The absolute rotation (degrees, clockwise) that ends a spin with the centre of `segment` under the
 * pointer, at least `turns` full turns past the `previous` rotation, so the wheel always spins forward.
 */
export function spinRotation(previous: number, segment: number, turns: number = SPIN_EXTRA_TURNS): number {
  const target = mod(-(segment * SEGMENT_DEGREES + SEGMENT_DEGREES / 2), 360);
  const base = previous - mod(previous, 360) + turns * 360;
  return base + target + (base + target - previous < turns * 360 ? 360 : 0);
}

/** The segment under the pointer at a rotation. */
export const segmentAt = (rotation: number): number => Math.floor(mod(-rotation, 360) / SEGMENT_DEGREES) % WHEEL_SEGMENTS;

const mod = (a: number, n: number) => ((a % n) + n) % n;
