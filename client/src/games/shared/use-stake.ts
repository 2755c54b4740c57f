import { useState } from "react";
import type { GameId } from "@casino/common/catalogue";
import { doubleStake, halveStake, maxStake, parseStake, stakeProblem, type StakeLimits } from "@casino/common/bet-panel";
import { maxBetFor, minBetFor } from "./limits";

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
  /** the same field held to another minimum: the one of the bet the table has configured */
  withMinimum(min: number): StakeState;
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
    withMinimum: (min) => stakeState(text, setText, { ...limits, min }),
  };
}

/**
 * The bet amount of a table: the field, its limits for this game and balance, and the ½ / 2x / Max
 * moves. The minimum here is the game's strictest (safe for any bet); the bet panel holds the field to
 * the minimum of the bet actually configured (`withMinimum`). The field starts at an amount every bet
 * of the game takes.
 */
export function useStake(game: GameId, balance: number, units = 1): StakeState {
  const [text, setText] = useState(() => String(Math.max(minBetFor(game), DEFAULT_CHIPS)));
  return stakeState(text, setText, { min: minBetFor(game), max: maxBetFor(game), balance, units: Math.max(1, units) });
}
