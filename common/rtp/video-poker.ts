import { BINOM, DRAWS_FOR_HOLD, drawTables, holdTotalsFromSubsetSums } from "../src/games/video-poker";
import type { RtpRow } from "./types";

/**
 * Exact return of Jacks or Better 9/6 (royal 800 per credit) under optimal holds: every one of the
 * C(52,5) deals, every one of its 32 holds valued exactly by inclusion–exclusion over the tabulated
 * pay sums (see video-poker.ts), the best hold's value averaged over the deals.
 */
let cached: number | null = null;

export function optimalReturn(): number {
  if (cached !== null) return cached;
  const { sums, pay } = drawTables();
  const [g0, g1, g2, g3, g4] = sums as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  // index[mask] = colex index of the chosen cards; built up as the nested loops add larger cards.
  const index = new Int32Array(32);
  const totals = new Float64Array(32);
  const size = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5];
  const tablesBySize = [g0, g1, g2, g3, g4];
  let sum = 0;
  const extend = (card: number, position: number) => {
    const bit = 1 << position;
    for (let mask = 0; mask < bit; mask++) index[mask | bit] = index[mask]! + BINOM[card]![size[mask]! + 1]!;
  };
  for (let c0 = 0; c0 < 48; c0++) {
    extend(c0, 0);
    for (let c1 = c0 + 1; c1 < 49; c1++) {
      extend(c1, 1);
      for (let c2 = c1 + 1; c2 < 50; c2++) {
        extend(c2, 2);
        for (let c3 = c2 + 1; c3 < 51; c3++) {
          extend(c3, 3);
          for (let c4 = c3 + 1; c4 < 52; c4++) {
            extend(c4, 4);
            for (let mask = 0; mask < 31; mask++) totals[mask] = tablesBySize[size[mask]!]![index[mask]!]!;
            totals[31] = pay[index[31]!]!;
            holdTotalsFromSubsetSums(totals);
            let best = 0;
            for (let mask = 0; mask < 32; mask++) {
              const value = totals[mask]! / DRAWS_FOR_HOLD[mask]!;
              if (value > best) best = value;
            }
            sum += best;
          }
        }
      }
    }
  }
  cached = sum / BINOM[52]![5]!;
  return cached;
}

export function rtpRows(): RtpRow[] {
  return [
    {
      game: "video-poker",
      bet: "Jacks or Better 9/6, royal 800 per credit",
      rtp: optimalReturn(),
      reference: 0.995439,
      method:
        "optimal holds: all 2,598,960 deals × all 32 holds, each hold valued exactly over its C(47, 5 − held) draws " +
        "by inclusion–exclusion over pay sums tabulated for every card set of up to four cards",
    },
  ];
}
