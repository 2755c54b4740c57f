import { ALL_DRAWS, catchWays, hundredths, MAX_PICKS, payTable, RISKS, type KenoRisk } from "./engine";
import type { RtpRow } from "../../rtp/types";

export { ALL_DRAWS, catchWays } from "./engine";

/** The exact return as a fraction: Σ_k hundredths(pay(k)) · ways(k) / (100 · C(40, 10)). */
export function kenoExactRtp(risk: KenoRisk, picks: number): { numerator: bigint; denominator: bigint } {
  const table = payTable(risk, picks);
  let numerator = 0n;
  for (let k = 0; k <= picks; k++) numerator += BigInt(hundredths(table[k]!)) * catchWays(picks, k);
  return { numerator, denominator: 100n * ALL_DRAWS };
}

export function rtpRows(): RtpRow[] {
  return RISKS.flatMap((risk) =>
    Array.from({ length: MAX_PICKS }, (_, i) => {
      const { numerator, denominator } = kenoExactRtp(risk, i + 1);
      return {
        game: "keno",
        bet: `${risk}, ${i + 1} pick${i === 0 ? "" : "s"}`,
        rtp: Number(numerator) / Number(denominator),
        method: "exact: hypergeometric catch counts over all C(40,10) draws in integer arithmetic; table designed for 98.9–99.1 %",
      };
    }),
  );
}
