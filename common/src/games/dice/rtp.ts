import { diceEngine, diceParams, ROLLS, winChance, type DiceParams } from "./engine";
import { fixedRng } from "../../fairness/stream";
import { frac, toNumber, type Fraction } from "../../rtp/fraction";
import type { RtpRow } from "../../rtp/types";

export const DICE_CASES: readonly DiceParams[] = [
  { target: 0.01, direction: "under" },
  { target: 50, direction: "under" },
  { target: 98, direction: "under" },
  { target: 99.98, direction: "over" },
  { target: 49.99, direction: "over" },
  { target: 1.99, direction: "over" },
  { target: 33.33, direction: "under" },
];

const FLOATS = 2n ** 32n;

/** Floats k/2³² with floor(k/2³² × 10,000) = roll: ceil((roll+1)·2³²/10⁴) − ceil(roll·2³²/10⁴). */
function floatsOfRoll(roll: number): bigint {
  const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
  const n = BigInt(ROLLS);
  return ceilDiv(BigInt(roll + 1) * FLOATS, n) - ceilDiv(BigInt(roll) * FLOATS, n);
}

/**
 * Every one of the 10,000 rolls through the engine. The stake equals the win chance in hundredths of a
 * percent, so amount × 9,900 / chance is whole and no payout is rounded: the sum is the exact return.
 * Also weighs each roll by its share of the 2³² floats, for the RTP the 32-bit stream really gives.
 */
export function diceRtp(raw: DiceParams): { rolls: Fraction; floats: Fraction } {
  const params = diceParams.parse(raw);
  const amount = winChance(params);
  let paid = 0n;
  let paidByFloat = 0n;
  for (let roll = 0; roll < ROLLS; roll++) {
    const payout = BigInt(diceEngine.start(amount, params, fixedRng([(roll + 0.5) / ROLLS])).payout);
    paid += payout;
    paidByFloat += payout * floatsOfRoll(roll);
  }
  return { rolls: frac(paid, BigInt(amount * ROLLS)), floats: frac(paidByFloat, BigInt(amount) * FLOATS) };
}

export function rtpRows(): RtpRow[] {
  return DICE_CASES.map((params) => {
    const { rolls, floats } = diceRtp(params);
    return {
      game: "dice",
      bet: `${params.direction} ${params.target} (${(winChance(params) / 100).toFixed(2)} % chance)`,
      rtp: toNumber(rolls),
      reference: 0.99,
      method:
        "exact: all 10,000 rolls through the engine (stake = chance in hundredths of a percent, so no payout " +
        `is rounded); weighed by the 2³² floats each roll receives it is ${toNumber(floats).toFixed(12)}`,
    };
  });
}
