import { coinFlipEngine, type CoinSide } from "./engine";
import { fixedRng } from "../../fairness/stream";
import { frac, toNumber } from "../../rtp/fraction";
import type { RtpRow } from "../../rtp/types";

const AMOUNT = 50; // 1.98 × 50 is a whole number, so no payout is rounded
const HALF = 2 ** 31;

/**
 * The 2³² possible floats k/2³² split at 0.5 (tails below, heads from 0.5 on; the tests pin the
 * boundary), 2³¹ each: weigh the engine's payout at one float from each half by 2³¹.
 */
function sideRtp(side: CoinSide) {
  const paid = [0.25, 0.75].map((f) => coinFlipEngine.start(AMOUNT, { side }, fixedRng([f])).payout);
  return frac(HALF * (paid[0]! + paid[1]!), 2 * HALF * AMOUNT);
}

export function rtpRows(): RtpRow[] {
  return (["heads", "tails"] as const).map((side) => ({
    game: "coin-flip",
    bet: side,
    rtp: toNumber(sideRtp(side)),
    reference: 0.99,
    method: "exact: the 2³² floats give 2³¹ tails and 2³¹ heads; the engine pays 1.98× on the called side",
  }));
}
