import { MAX_MINES, MIN_MINES, minesMultiplier, TILES } from "./engine";
import { equals, frac, mul, toNumber, type Fraction } from "../../rtp/fraction";
import type { RtpRow } from "../../rtp/types";

/** P(the first k tiles revealed are all gems) with m mines: Π_{i<k} (25 − m − i) / (25 − i). */
function survival(mines: number, gems: number): Fraction {
  let p = frac(1);
  for (let i = 0; i < gems; i++) p = mul(p, frac(TILES - mines - i, TILES - i));
  return p;
}

/** Return per coin of revealing k gems and cashing out (the engine's multiplier × the survival chance). */
export function cashOutRtp(mines: number, gems: number): Fraction {
  const [num, den] = minesMultiplier(mines, gems);
  return mul(survival(mines, gems), frac(num, den));
}

const SHOWN = [1, 3, 5, 10, 24];

export function rtpRows(): RtpRow[] {
  const everyK = (m: number) => Array.from({ length: TILES - m }, (_, i) => cashOutRtp(m, i + 1));
  const all = Array.from({ length: MAX_MINES - MIN_MINES + 1 }, (_, i) => everyK(i + MIN_MINES)).flat();
  const first = all[0]!;
  if (!all.every((v) => equals(v, first))) throw new Error("mines: cash-out points return different amounts");
  const method =
    "exact: for every cash-out point k = 1..25−m, P(k gems in a row) = Π(25−m−i)/(25−i) times the engine's " +
    "multiplier, in rational arithmetic (all equal); the choice of tiles does not matter. Before rounding " +
    "down to a coin and below the payout cap";
  return [
    ...SHOWN.map((m) => ({
      game: "mines",
      bet: `${m} mine${m === 1 ? "" : "s"}`,
      rtp: toNumber(everyK(m)[0]!),
      reference: 0.99,
      method,
    })),
    {
      game: "mines",
      bet: "every mine count 1–24, every cash-out point",
      rtp: toNumber(first),
      reference: 0.99,
      method,
    },
  ];
}
