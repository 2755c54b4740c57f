import { cardName, type Card } from "./cards";
import type { VerifiedFloat } from "./engine";

/**
 * The words the engines' `describe` share: how the verifier names cards, floats, payouts and actions.
 */

export const cards = (list: readonly Card[]) => list.map(cardName).join(" ");
export const f = (floats: VerifiedFloat[], i: number) => floats[i]?.value ?? NaN;
export const pays = (payout: number) => (payout > 0 ? `pays ${payout}` : "pays nothing");

export function describeAction(action: unknown): string {
  const a = action as { type?: string; take?: boolean; hold?: boolean[]; tile?: number; bets?: unknown[]; bet?: string; number?: number };
  switch (a?.type) {
    case "insurance":
      return a.take ? "take insurance" : "decline insurance";
    case "reveal":
      return `reveal tile ${a.tile}`;
    case "takeDown":
      return `take down ${a.bet}${a.number === undefined ? "" : ` ${a.number}`}`;
    case "bet":
      return `bet ${(a.bets as { type: string; number?: number; amount: number }[]).map((b) => `${b.type}${b.number === undefined ? "" : ` ${b.number}`} ${b.amount}`).join(", ")}`;
    default:
      return a?.type ?? "action";
  }
}

/** The 52-bit integer two floats make (crash, limbo). */
export const draw52 = (floats: VerifiedFloat[]) => {
  const high = Math.floor(f(floats, 0) * 2 ** 26);
  const low = Math.floor(f(floats, 1) * 2 ** 26);
  return `r = floor(f₀ × 2²⁶) × 2²⁶ + floor(f₁ × 2²⁶) = ${high} × 2²⁶ + ${low} = ${BigInt(high) * 2n ** 26n + BigInt(low)}`;
};
