/**
 * The shapes of a game's cases file (`<game>.cases.ts`, loaded by `cases.ts`) and the outcome spaces its
 * exactly enumerated rounding cases are built from.
 */

/**
 * An opening bet and, for a game whose round stays open, how to finish it whatever the cards say.
 * `act` returns the actions to try, in order of preference, while the round is open: the first one
 * the game accepts is played (a test fails when none is).
 */
export interface Play {
  amount: number;
  params: unknown;
  act?: (view: any) => unknown[];
  /** what the verifier's account of this round says, its lines joined (checked at nonce 7) */
  verifierSays?: RegExp;
}

/** A pay ratio n / d the game pays (as stake × n / d), to be rounded without bias at every stake. */
export type Ratio = [label: string, n: bigint | number, d: bigint | number];

/** The float that picks index i of n (the middle of its interval). */
export const pick = (i: number, n: number) => (i + 0.5) / n;

/** An outcome space: each outcome's floats and its weight, the weights summing to `total`. */
export interface Outcomes {
  outcomes: Iterable<[floats: number[], weight: bigint]>;
  total: bigint;
}

function* each(n: number, floats: (i: number) => number[]): Iterable<[number[], bigint]> {
  for (let i = 0; i < n; i++) yield [floats(i), 1n];
}

/** n equally likely outcomes, the i-th drawn by `floats(i)`. */
export const uniform = (n: number, floats: (i: number) => number[]): Outcomes => ({ outcomes: each(n, floats), total: BigInt(n) });

/** Every combination of independent uniform picks of the given sizes (dice, reels). */
export function product(sizes: readonly number[]): Outcomes {
  const total = sizes.reduce((x, y) => x * y, 1);
  return uniform(total, (i) => {
    let rest = i;
    return sizes.map((n) => {
      const index = rest % n;
      rest = Math.floor(rest / n);
      return pick(index, n);
    });
  });
}

/** A bet of a single-step game whose every outcome is enumerated: its expected payout is exact. */
export interface Enumerated {
  bet: string;
  /** the bet's row in the game's exact RTP table; left out when every row returns the same (the first is used) */
  rtpBet?: string;
  params: (stake: number) => unknown;
  outcomes: () => Outcomes;
}

/** A bet type sampled by Monte Carlo through the runner; `next` chooses each action from the state. */
export interface Sampled {
  bet: string;
  params: (stake: number) => unknown;
  next?: (state: any) => unknown;
}

/** Rounding rule 2's proof for one game (common/test/rounding.stats.test.ts): at least one bet type, enumerated or sampled. */
export interface RoundingCases {
  ratios?: Ratio[];
  enumerated?: Enumerated[];
  sampled?: Sampled[];
}

/**
 * A round left open and settled by the retention sweep with the game's default action (a multi-step game).
 * The round is opened with 10 coins (on a chip table, chips totalling 10); `prepare` acts on each view until
 * it returns null; `voided` says whether the sweep refunds the stake rather than finishing the round, and
 * `defaults` checks the actions the sweep played.
 */
export interface Abandoned {
  params: unknown;
  prepare?: (view: any) => unknown;
  voided: boolean;
  defaults: (actions: any[]) => void;
}

/** What a game's cases file exports. */
export interface GameCases {
  plays: Play[];
  oneCoin: Play;
  rounding: RoundingCases;
  /** a game with a default action only */
  abandoned?: Abandoned[];
}
