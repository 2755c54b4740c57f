import { useState } from "react";
import type { GameId } from "@casino/common/catalogue";
import { doubleStake, halveStake, maxStake, parseStake, stakeProblem, type StakeLimits } from "@casino/common/bet-panel";
import { MAX_BET, MIN_BET } from "@casino/common/limits";
import { engineFor } from "@casino/common/games/registry";

export interface StakeState {
  /** the field's text, as typed */
  text: string;
  setText(text: string): void;
  setAmount(amount: number): void;
  /** the field read as a number (NaN when unreadable) */
  amount: number;
  limits: StakeLimits;
  /** why the amount cannot be sent, or null */
  problem: string | null;
  halve(): void;
  double(): void;
  max(): void;
}

const DEFAULT_CHIPS = 10;

function stakeState(text: string, setText: (text: string) => void, limits: StakeLimits): StakeState {
  const amount = parseStake(text);
  const setAmount = (n: number) => setText(String(n));
  return {
    text,
    setText,
    setAmount,
    amount,
    limits,
    problem: stakeProblem(amount, limits),
    halve: () => setAmount(halveStake(amount, limits)),
    double: () => setAmount(doubleStake(amount, limits)),
    max: () => setAmount(maxStake(limits)),
  };
}

/** The amount's text, held by a table whose modes share one amount (crash's Live and Instant). */
export type StakeText = [string, (text: string) => void];

/** An amount for a table's modes to share: it starts at 10, like every bet field. */
export const useStakeText = (): StakeText => useState(() => String(DEFAULT_CHIPS));

/**
 * The bet amount of a table: the field, its limits for this game and balance, and the ½ / 2x / Max
 * moves. Every bet takes any stake from 1 coin; the field starts at 10, or is the table's `held` one.
 */
export function useStake(game: GameId, balance: number, units = 1, held?: StakeText): StakeState {
  const own = useState(() => String(DEFAULT_CHIPS));
  const [text, setText] = held ?? own;
  return stakeState(text, setText, { min: MIN_BET, max: engineFor(game)?.maxStake ?? MAX_BET, balance, units: Math.max(1, units) });
}
