import {
  BET_NAMES,
  EVEN_MONEY_TYPES,
  GROUP_TYPES,
  INSIDE_TYPES,
  LAYOUT_SETS,
  payFor1,
  POCKETS,
  coveredNumbers,
  type RouletteBet,
} from "./engine";
import type { RtpRow } from "../../rtp/types";

/** Every instance of each bet type: each legal inside number set, each dozen and column. */
function instances(): { label: string; bets: RouletteBet[] }[] {
  return [
    ...INSIDE_TYPES.map((type) => ({
      label: BET_NAMES[type],
      bets: LAYOUT_SETS[type].map((numbers) => ({ type, numbers: [...numbers], amount: 1 }) as RouletteBet),
    })),
    ...EVEN_MONEY_TYPES.map((type) => ({ label: BET_NAMES[type], bets: [{ type, amount: 1 } as RouletteBet] })),
    ...GROUP_TYPES.map((type) => ({
      label: BET_NAMES[type],
      bets: ([1, 2, 3] as const).map((value) => ({ type, value, amount: 1 }) as RouletteBet),
    })),
  ];
}

/** Σ over the 37 pockets of what one coin returns, as numerator / (denominator × 37), for one bet. */
function exactRtp(bet: RouletteBet): { numerator: number; denominator: number } {
  const { numerator, denominator } = payFor1(bet);
  const covered = coveredNumbers(bet);
  let wins = 0;
  for (let pocket = 0; pocket < POCKETS; pocket++) if (covered.includes(pocket)) wins += 1;
  return { numerator: wins * numerator, denominator: denominator * POCKETS };
}

export function rtpRows(): RtpRow[] {
  return instances().map(({ label, bets }) => {
    const values = bets.map(exactRtp);
    const rtp = values[0]!.numerator / values[0]!.denominator;
    // every instance of the type is checked, and they must all agree exactly (cross-multiplied)
    const allEqual = values.every((v) => v.numerator * values[0]!.denominator === values[0]!.numerator * v.denominator);
    if (!allEqual) throw new Error(`roulette ${label}: instances return different amounts`);
    return {
      game: "roulette",
      bet: label,
      rtp,
      reference: 1 - 0.02703,
      method: `exact: all 37 pockets for each of the ${bets.length} legal ${label} bet${bets.length === 1 ? "" : "s"}; 36/37`,
    };
  });
}
