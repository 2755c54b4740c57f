import { WHEEL_PRIZES } from "../constants";
import { pickIndex, type Rng } from "../fairness/stream";

/**
 * The daily bonus wheel: one float of the player's stream (a nonce of its own, cursor 0) picks one of the
 * 12 equal segments, segment = floor(f × 12), in WHEEL_PRIZES order.
 */
export function spinWheel(rng: Rng): { segment: number; prize: number } {
  const segment = pickIndex(rng, WHEEL_PRIZES.length);
  return { segment, prize: WHEEL_PRIZES[segment]! };
}
