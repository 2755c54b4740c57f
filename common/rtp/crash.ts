import { CURVE_TARGETS, curveRtp } from "./limbo";
import { toNumber } from "./fraction";
import type { RtpRow } from "./types";
import { minBetFor } from "../src/games/min-bet";

export function rtpRows(): RtpRow[] {
  return CURVE_TARGETS.map((cashOutAt) => ({
    game: "crash",
    bet: `cash out at ${cashOutAt}×`,
    minBet: minBetFor("crash", { cashOutAt }),
    rtp: toNumber(curveRtp(BigInt(Math.round(cashOutAt * 100)))),
    reference: 0.99,
    method:
      "exact: the crash point is Limbo's curve on a uniform 52-bit draw (float52), so a cash-out at T " +
      "hundredths wins for floor(99·2⁵²/T) of the 2⁵² draws: RTP = T·floor(99·2⁵²/T)/(100·2⁵²)",
  }));
}
