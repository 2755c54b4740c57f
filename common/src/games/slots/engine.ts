import { z } from "zod";
import { pickIndex, type Rng } from "../../fairness/stream";
import { MAX_PAYOUT, payoutRatio } from "../../limits";
import type { GameEngine, Step, StepContext } from "../engine";
import { f, pays } from "../describe";

/**
 * Slots: the classic post-war three-reel machine of game-rules A13 (20 stops a reel, one centre pay
 * line), re-tuned so cherry-cherry pays 4 instead of 3: 7,804 coins back per 8,000 played, 97.55 %.
 * One float per reel: stop = floor(f × 20).
 */
export const SYMBOLS = ["cherry", "orange", "plum", "bell", "melon", "bar"] as const;
export type SlotSymbol = (typeof SYMBOLS)[number];

/** The reel strips, in order. Their symbol counts are the ones of game-rules A13. */
export const REELS: readonly (readonly SlotSymbol[])[] = [
  [
    "cherry",
    "plum",
    "orange",
    "bar",
    "plum",
    "cherry",
    "melon",
    "plum",
    "orange",
    "cherry",
    "bell",
    "plum",
    "orange",
    "cherry",
    "bar",
    "plum",
    "orange",
    "cherry",
    "melon",
    "plum",
  ],
  [
    "bell",
    "cherry",
    "bell",
    "orange",
    "cherry",
    "bell",
    "plum",
    "cherry",
    "bell",
    "melon",
    "cherry",
    "bell",
    "cherry",
    "bell",
    "bar",
    "cherry",
    "bell",
    "cherry",
    "bell",
    "bell",
  ],
  [
    "orange",
    "plum",
    "orange",
    "cherry",
    "orange",
    "bell",
    "orange",
    "plum",
    "orange",
    "melon",
    "orange",
    "cherry",
    "orange",
    "plum",
    "orange",
    "bar",
    "orange",
    "cherry",
    "orange",
    "plum",
  ],
];

/** Pays "for 1" (stake included) of each line. */
export const PAYS = {
  cherry: 2,
  cherryCherry: 4,
  threeCherries: 8,
  orange: 10,
  plum: 14,
  bell: 18,
  melon: 100,
  threeBars: 200,
} as const;
/** The fruit lines x-x-x or x-x-bar. */
const FRUIT_PAYS: Readonly<Partial<Record<SlotSymbol, number>>> = {
  orange: PAYS.orange,
  plum: PAYS.plum,
  bell: PAYS.bell,
  melon: PAYS.melon,
};
export const TOP_PAY = PAYS.threeBars;

/** The pay table in the order the client shows it. */
export const PAY_TABLE: readonly { line: string; pays: number }[] = [
  { line: "bar bar bar", pays: PAYS.threeBars },
  { line: "melon melon melon-or-bar", pays: PAYS.melon },
  { line: "bell bell bell-or-bar", pays: PAYS.bell },
  { line: "plum plum plum-or-bar", pays: PAYS.plum },
  { line: "orange orange orange-or-bar", pays: PAYS.orange },
  { line: "cherry cherry cherry", pays: PAYS.threeCherries },
  { line: "cherry cherry any-other", pays: PAYS.cherryCherry },
  { line: "cherry any-other any", pays: PAYS.cherry },
];

/** What the centre line returns for 1, reading the reels left to right; 0 when it pays nothing. */
export function linePays(line: readonly SlotSymbol[]): number {
  const [a, b, c] = line;
  if (a === "cherry") {
    if (b !== "cherry") return PAYS.cherry;
    return c === "cherry" ? PAYS.threeCherries : PAYS.cherryCherry;
  }
  if (a === "bar") return b === "bar" && c === "bar" ? PAYS.threeBars : 0;
  const fruit = FRUIT_PAYS[a!];
  return fruit !== undefined && b === a && (c === a || c === "bar") ? fruit : 0;
}

export const slotsParams = z.object({}).strict();
export type SlotsParams = z.infer<typeof slotsParams>;

export interface SlotsState {
  stops: number[];
  line: SlotSymbol[];
  /** what the line returns for 1 */
  multiplier: number;
}

export const lineAt = (stops: readonly number[]): SlotSymbol[] => stops.map((stop, reel) => REELS[reel]![stop]!);

export const slotsEngine: GameEngine<SlotsParams, SlotsState> = {
  id: "slots",
  params: slotsParams,
  start(amount: number, _params: SlotsParams, rng: Rng): Step<SlotsState> {
    const stops = REELS.map((reel) => pickIndex(rng, reel.length));
    const line = lineAt(stops);
    const multiplier = linePays(line);
    return {
      state: { stops, line, multiplier },
      stake: amount,
      payout: payoutRatio(amount, multiplier, 1),
      done: true,
    };
  },
  view: (state) => state,
  maxPayout: (amount) => Math.min(payoutRatio(amount, TOP_PAY, 1), MAX_PAYOUT),
  winChance: () => slotsWinChance(),
  describe: describeSlots,
};

function describeSlots({ state: s, step, floats }: StepContext<SlotsState>): string[] {
  return [
    `stops: ${s.stops.map((stop, i) => `reel ${i + 1} floor(${f(floats, i)} × 20) = ${stop}`).join("; ")}`,
    `line: ${s.line.join(" ")} returns ${s.multiplier} for 1, ${pays(step.payout)}`,
  ];
}

let slotsWinShare: number | undefined;
/** Share of the 20³ reel stops whose line pays more than the stake (every paying line does: the least is 2 for 1). */
function slotsWinChance(): number {
  if (slotsWinShare === undefined) {
    let wins = 0;
    for (const a of REELS[0]!) for (const b of REELS[1]!) for (const c of REELS[2]!) if (linePays([a, b, c]) > 1) wins += 1;
    slotsWinShare = wins / (REELS[0]!.length * REELS[1]!.length * REELS[2]!.length);
  }
  return slotsWinShare;
}

export default slotsEngine;
