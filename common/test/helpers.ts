import { GameRuleError } from "../src/games/engine";
import { cardCode, type Card } from "../src/games/cards";
import type { Rng } from "../src/fairness/stream";
import { seededFloats } from "./stats";

/** Helpers the game tests share: catching a rule error, a seeded Rng, and floats that deal chosen cards. */

/** The GameRuleError `fn` throws; fails the test if it throws anything else or nothing. */
export function ruleError(fn: () => unknown): GameRuleError {
  try {
    fn();
  } catch (e) {
    if (e instanceof GameRuleError) return e;
    throw e;
  }
  throw new Error("expected a GameRuleError");
}

/** seededFloats as an Rng that counts its cursor, for Monte Carlo runs through the runner. */
export function seededRng(seed: number): Rng {
  const next = seededFloats(seed);
  let cursor = 0;
  return {
    next: () => ((cursor += 1), next()),
    get cursor() {
      return cursor;
    },
  };
}

/**
 * Floats that deal exactly `cards`, in order, from a fresh shoe of `decks` decks dealt without
 * replacement: the canonical remaining shoe lists each code as many times as it is left, so the first
 * copy of code x sits after every copy of the codes below x; (index + 0.5) / remaining selects it.
 * With one deck this is also the pick-and-remove draw over the 52-card list.
 */
export function shoeFloats(cards: readonly Card[], decks = 1): number[] {
  const counts = new Array<number>(52).fill(decks);
  let remaining = decks * 52;
  return cards.map((card) => {
    let index = 0;
    for (let code = 0; code < card; code++) index += counts[code]!;
    const f = (index + 0.5) / remaining;
    counts[card]! -= 1;
    remaining -= 1;
    return f;
  });
}

/** Cards from text such as "Ah Kd 2c": rank 2–9, T, J, Q, K, A and suit d, h, s, c. */
export const hand = (text: string): Card[] =>
  text.split(" ").map((t) => cardCode("23456789TJQKA".indexOf(t[0]!) + 2, "dhsc".indexOf(t[1]!)));
