import { GameRuleError } from "../src/games/engine";
import { cardCode, type Card } from "../src/games/cards";
import { evaluateFive } from "../src/games/poker-hands";
import { vi } from "vitest";
import { main } from "../scripts/verify";
import { sha256Hex, type FairnessInput, type Rng } from "../src/fairness/stream";
import { seededFloats } from "./stats";

/**
 * Helpers the game tests share: catching a rule error, a seeded Rng, floats that deal chosen cards, and
 * the brute-force best five cards and random hands the Hold'em evaluator's tests compare with; and the
 * verify command's seeds, arguments and in-process run.
 */

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

/** The reference: every one of the C(n, 5) five-card subsets ranked by the shared five-card ranking. */
export function bruteForceBest(cards: readonly Card[]): { value: number; five: Card[] } {
  let best = { value: -1, five: [] as Card[] };
  const n = cards.length;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) {
            const five = [cards[a]!, cards[b]!, cards[c]!, cards[d]!, cards[e]!];
            const value = evaluateFive(five).value;
            if (value > best.value) best = { value, five };
          }
  return best;
}

/** `count` distinct cards, drawn with `next` by a partial shuffle of the 52 codes. */
export function randomCards(next: () => number, count: number): Card[] {
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(next() * (52 - i));
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck.slice(0, count);
}

// The verify command's tests (verify.test.ts, and verify.process.test.ts for the command as a process).

/** The server seed the verifier's tests play on, and a round's seeds on it. */
export const verifierServerSeed = sha256Hex("verifier tests");
export const verifierSeeds = (nonce: number) => ({ serverSeed: verifierServerSeed, clientSeed: "verifier", nonce });

/** A mines round on nonce 3 and the command's arguments for it. */
export const verifierInput: FairnessInput = verifierSeeds(3);
export const verifierArgs = [
  "--server-seed",
  verifierInput.serverSeed,
  "--client-seed",
  verifierInput.clientSeed,
  "--nonce",
  "3",
  "--game",
  "mines",
  "--amount",
  "100",
  "--params",
  '{"mines":3}',
  "--actions",
  '[{"type":"reveal","tile":4},{"type":"reveal","tile":20}]',
];

/**
 * The command's `main` on these arguments, in this process: what it prints and its exit code. The
 * command as a process (its entry, the npm script and the exit code it sets) is run by the tests
 * "runs as a process" and "runs as the npm script" (verify.process.test.ts).
 */
export const verifyCli = async (extra: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(`${a.join(" ")}\n`));
  const error = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(`${a.join(" ")}\n`));
  try {
    const code = main(extra);
    return { code, stdout: out.join(""), stderr: err.join("") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
};
