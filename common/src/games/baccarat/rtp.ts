import { BACCARAT_DECKS, BACCARAT_PAYS, BACCARAT_SIDES, type BaccaratSide } from "./engine";
import { coupOdds } from "./odds";
import type { RtpRow } from "../../rtp/types";

export { coupOdds, type CoupOdds } from "./odds";

/** Return of one coin on `side`: a win pays by the pay table, a tie returns Player/Banker stakes. */
export function baccaratRtp(side: BaccaratSide, decks = BACCARAT_DECKS): number {
  const { ways, total } = coupOdds(decks);
  const { num, den } = BACCARAT_PAYS[side];
  const pushes = side === "tie" ? 0n : ways.tie;
  const scale = 1_000_000_000_000n;
  const scaled = ((ways[side] * BigInt(num) + pushes * BigInt(den)) * scale) / (total * BigInt(den));
  return Number(scaled) / Number(scale);
}

/** House edges from game-rules A3 (8 decks, every card order): banker 1.0579 %, player 1.2351 %, tie 14.3596 %. */
const REFERENCE: Record<BaccaratSide, number> = { player: 1 - 0.012351, banker: 1 - 0.010579, tie: 1 - 0.143596 };

export function rtpRows(): RtpRow[] {
  return BACCARAT_SIDES.map((side) => ({
    game: "baccarat",
    bet: side,
    rtp: baccaratRtp(side),
    reference: REFERENCE[side],
    method:
      "exact enumeration of every ordered deal of a full 8-deck shoe (by the ten point-value classes, each sequence weighted by its card orders) under the Punto Banco drawing rules; " +
      "Banker pays 0.95:1, Player 1:1, Tie 8:1, Player/Banker push on a tie; before rounding payouts down to whole coins (exact for Banker stakes in multiples of 20)",
  }));
}
