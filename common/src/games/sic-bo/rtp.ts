import { allOrderedRolls } from "../dice-faces";
import { settleSicBoBet, type SicBoBet } from "./engine";
import type { RtpRow } from "../../rtp/types";

const faces = [1, 2, 3, 4, 5, 6] as const;

/** Each bet type with every instance that shares one pay line, and the edge game-rules A12 gives it. */
const GROUPS: { bet: string; instances: SicBoBet[]; edge: number }[] = [
  { bet: "small", instances: [{ type: "small", amount: 1 }], edge: 0.02778 },
  { bet: "big", instances: [{ type: "big", amount: 1 }], edge: 0.02778 },
  ...(
    [
      [4, 17, 0.15278],
      [5, 16, 0.13889],
      [6, 15, 0.12037],
      [7, 14, 0.09722],
      [8, 13, 0.125],
      [9, 12, 0.07407],
      [10, 11, 0.125],
    ] as const
  ).map(([a, b, edge]) => ({
    bet: `total ${a} or ${b}`,
    instances: [a, b].map((value) => ({ type: "total", value, amount: 1 }) as SicBoBet),
    edge,
  })),
  { bet: "specific triple", instances: faces.map((value) => ({ type: "triple", value, amount: 1 }) as SicBoBet), edge: 0.16204 },
  { bet: "any triple", instances: [{ type: "anyTriple", amount: 1 }], edge: 0.13889 },
  { bet: "specific double", instances: faces.map((value) => ({ type: "double", value, amount: 1 }) as SicBoBet), edge: 0.11111 },
  {
    bet: "two-dice combination",
    instances: faces.flatMap((a) =>
      faces.filter((b) => b > a).map((b) => ({ type: "combination", numbers: [a, b], amount: 1 }) as SicBoBet),
    ),
    edge: 0.16667,
  },
  { bet: "single number", instances: faces.map((value) => ({ type: "single", value, amount: 1 }) as SicBoBet), edge: 0.0787 },
];

/** Coins returned over all 216 equally likely ordered rolls for a 1-coin bet. */
const returnedOver216 = (bet: SicBoBet): number => allOrderedRolls(3).reduce((sum, dice) => sum + settleSicBoBet(bet, dice).payout, 0);

export function rtpRows(): RtpRow[] {
  return GROUPS.map(({ bet, instances, edge }) => {
    const returned = instances.map(returnedOver216);
    if (returned.some((r) => r !== returned[0])) throw new Error(`sic bo ${bet}: instances return different amounts`);
    return {
      game: "sic-bo",
      bet,
      rtp: returned[0]! / 216,
      reference: 1 - edge,
      method: `exact: all 216 ordered rolls of three dice (${returned[0]}/216 per coin), each of the ${instances.length} bet${instances.length === 1 ? "" : "s"} of the line`,
    };
  });
}
