import { CURVE_TARGETS, curveRtp } from "../limbo/rtp";
import { toNumber } from "../../rtp/fraction";
import type { RtpRow } from "../../rtp/types";

export function rtpRows(): RtpRow[] {
  const single = CURVE_TARGETS.map((cashOutAt) => ({
    game: "crash",
    bet: `cash out at ${cashOutAt}×`,
    rtp: toNumber(curveRtp(BigInt(Math.round(cashOutAt * 100)))),
    reference: 0.99,
    method:
      "exact: the crash point is Limbo's curve on a uniform 52-bit draw (float52), so a cash-out at T " +
      "hundredths wins for floor(99·2⁵²/T) of the 2⁵² draws: RTP = T·floor(99·2⁵²/T)/(100·2⁵²)",
  }));
  const shared = [1.01, 2, 10, 100].map((cashOutAt) => ({
    game: "crash",
    bet: `shared room (hash chain), cash out at ${cashOutAt}×`,
    rtp: toNumber(curveRtp(BigInt(Math.round(cashOutAt * 100)))),
    reference: 0.99,
    method:
      "exact for the same curve: a cash-out at T hundredths (automatic, or by hand when the curve shows T) " +
      "wins iff the crash point ≥ T; r = first 52 bits of HMAC-SHA256(salt, game hash), assumed uniform. " +
      "A round cut short by a restart only adds (refunds, automatic targets paid), so this is a lower bound",
  }));
  return [...single, ...shared];
}
