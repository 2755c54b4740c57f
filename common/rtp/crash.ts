import { CURVE_TARGETS, curveRtp } from "./limbo";
import { toNumber } from "./fraction";
import type { RtpRow } from "./types";

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
  return [
    ...single,
    {
      game: "crash",
      bet: "shared room (hash chain), cash out at 2×",
      rtp: toNumber(curveRtp(200n)),
      reference: 0.99,
      method:
        "exact for the same curve; r = first 52 bits of HMAC-SHA256(salt, game hash), assumed uniform " +
        "(the salt is unknown when the chain is committed)",
    },
  ];
}
