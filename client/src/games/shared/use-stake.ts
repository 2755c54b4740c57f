import { useCallback, useMemo, useState } from "react";
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
}

const DEFAULT_CHIPS = 10;

/** The bet amount of a table: the field, its limits for this game and balance, and the ½ / 2x / Max moves. */
export function useStake(game: GameId, balance: number, units = 1): StakeState {
  const [text, setText] = useState(() => String(Math.max(minBetFor(game), DEFAULT_CHIPS)));
  const amount = parseStake(text);
  const limits = useMemo<StakeLimits>(
    () => ({ min: minBetFor(game), max: maxBetFor(game), balance, units: Math.max(1, units) }),
    [game, balance, units],
  );
  const setAmount = useCallback((n: number) => setText(String(n)), []);
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
