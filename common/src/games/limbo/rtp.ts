import { frac, toNumber, type Fraction } from "../../rtp/fraction";
import { winningDraws } from "./engine";
import type { RtpRow } from "../../rtp/types";

export { winningDraws } from "./engine";

const SPAN = 2n ** 52n;

/** Return per coin of a bet paying T/100 when the draw reaches T: (T/100) · winningDraws(T) / 2⁵². */
export function curveRtp(targetHundredths: bigint): Fraction {
  return frac(targetHundredths * winningDraws(targetHundredths), 100n * SPAN);
}

export const CURVE_TARGETS = [1.01, 1.5, 2, 10, 100, 1_000, 1_000_000] as const;

export function rtpRows(): RtpRow[] {
  return CURVE_TARGETS.map((target) => {
    const rtp = curveRtp(BigInt(Math.round(target * 100)));
    return {
      game: "limbo",
      bet: `target ${target}×`,
      rtp: toNumber(rtp),
      reference: 0.99,
      method:
        "exact: float52 draws r uniformly from 2⁵² values (26 bits of each of two floats); " +
        "the result reaches T hundredths for floor(99·2⁵²/T) of them, so RTP = T·floor(99·2⁵²/T)/(100·2⁵²), " +
        "below 99 % by less than T/(100·2⁵²)",
    };
  });
}
