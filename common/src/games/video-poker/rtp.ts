import { BINOM } from "../poker-hands";
import { holdReturns } from "./engine";
import type { RtpRow } from "../../rtp/types";

/**
 * Exact return of Jacks or Better 9/6 (royal 800 per credit) under optimal holds. A deal's best hold
 * and its value do not change when the suits are renamed, so the C(52,5) deals are grouped into their
 * 134,459 classes under the 24 suit permutations; one deal per class is valued (all 32 holds, each
 * exactly over its C(47, 5 − held) draws, see video-poker.ts) and weighted by the size of its class.
 */
export interface VideoPokerAnalysis {
  rtp: number;
  /** Suit-permutation classes of deals, and the deals they cover (checks: 134,459 and 2,598,960). */
  classes: number;
  deals: number;
}

let cached: VideoPokerAnalysis | null = null;

const PERMUTATIONS: number[][] = [];
(function permute(prefix: number[]) {
  if (prefix.length === 4) PERMUTATIONS.push(prefix);
  for (let s = 0; s < 4; s++) if (!prefix.includes(s)) permute([...prefix, s]);
})([]);

/** permutedMask[p][m]: the 4-bit suit set m with its suits renamed by permutation p. */
const permutedMask = PERMUTATIONS.map((p) =>
  Array.from({ length: 16 }, (_, m) => p.reduce((out, to, from) => (m & (1 << from) ? out | (1 << to) : out), 0)),
);
/** The suit sets of each size, and each set's position in its list. */
const setsOfSize = [0, 1, 2, 3, 4].map((k) => Array.from({ length: 16 }, (_, m) => m).filter((m) => popcount4(m) === k));
const positionInSize = Array.from({ length: 16 }, (_, m) => setsOfSize[popcount4(m)]!.indexOf(m));

function popcount4(m: number): number {
  return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);
}

export function analyseVideoPoker(): VideoPokerAnalysis {
  if (cached) return cached;
  let sum = 0;
  let classes = 0;
  let deals = 0;
  // Every multiset of five ranks: groups of (rank, multiplicity), ascending by rank.
  const groups: [number, number][] = [];
  const visit = () => {
    const sizes = groups.map(([, m]) => setsOfSize[m]!.length);
    const total = sizes.reduce((a, b) => a * b, 1);
    const seen = new Uint8Array(total);
    const masks = new Array<number>(groups.length);
    for (let a = 0; a < total; a++) {
      if (seen[a]) continue;
      let rest = a;
      for (let g = groups.length - 1; g >= 0; g--) {
        masks[g] = setsOfSize[groups[g]![1]]![rest % sizes[g]!]!;
        rest = Math.floor(rest / sizes[g]!);
      }
      let orbit = 0;
      for (const perm of permutedMask) {
        let b = 0;
        for (let g = 0; g < groups.length; g++) b = b * sizes[g]! + positionInSize[perm[masks[g]!]!]!;
        if (!seen[b]) {
          seen[b] = 1;
          orbit += 1;
        }
      }
      const cards: number[] = [];
      groups.forEach(([rank], g) => {
        for (let s = 0; s < 4; s++) if (masks[g]! & (1 << s)) cards.push(rank * 4 + s);
      });
      sum += orbit * Math.max(...holdReturns(cards));
      classes += 1;
      deals += orbit;
    }
  };
  const walk = (from: number, left: number) => {
    if (left === 0) return visit();
    for (let rank = from; rank < 13; rank++) {
      for (let m = 1; m <= Math.min(4, left); m++) {
        groups.push([rank, m]);
        walk(rank + 1, left - m);
        groups.pop();
      }
    }
  };
  walk(0, 5);
  cached = { rtp: sum / BINOM[52]![5]!, classes, deals };
  return cached;
}

export const optimalReturn = (): number => analyseVideoPoker().rtp;

export function rtpRows(): RtpRow[] {
  return [
    {
      game: "video-poker",
      bet: "Jacks or Better 9/6, royal 800 per credit",
      rtp: optimalReturn(),
      reference: 0.995439,
      method:
        "optimal holds: every deal (2,598,960, grouped into 134,459 suit-permutation classes) × all 32 holds, " +
        "each hold valued exactly over its C(47, 5 − held) draws by inclusion–exclusion over pay sums " +
        "tabulated for every card set of up to four cards",
    },
  ];
}
