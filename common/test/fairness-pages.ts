import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * Reading the provably-fair specification, and an independent verifier written from it alone.
 *
 * docs/fairness.md is the published specification; each chance game's part of it is that game's page,
 * common/src/games/<game>/fairness.md (`npm run docs:games` assembles the document). Its worked
 * examples are the ```json blocks with an "example" field.
 *
 * The independent verifier imports nothing of the project, only node:crypto, and reads the document's
 * text for its tables: each game's test file (common/test/games/<game>.test.ts) re-derives its game's
 * examples with `independentDerivation`, from its page's float mapping, with the stream and shared
 * procedures below (sections 1–4); common/test/fairness-independent.test.ts does the rest (the stream's
 * test vector, the daily wheel) and checks that every game's test file does its part. Together they
 * show the document is enough to verify a round without the project's code.
 */

export type Example = Record<string, any>;

export const SPEC = readFileSync(new URL("../../docs/fairness.md", import.meta.url), "utf8");

/** A game's page of the specification, as written. */
export const fairnessPage = (game: string): string => readFileSync(new URL(`../src/games/${game}/fairness.md`, import.meta.url), "utf8");

/** The ```json blocks of a text, parsed. */
export const jsonBlocks = (text: string): Example[] =>
  [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!) as Example);

/** The worked examples of a text: its json blocks naming a game or the daily wheel in "example". */
export const workedExamples = (text: string): Example[] =>
  jsonBlocks(text).filter((b) => typeof b.example === "string" && b.example !== "stream");

/** The json block holding the table `name` ("table": name) of a text. */
export function tableIn(text: string, name: string): Example {
  const found = jsonBlocks(text).find((b) => b.table === name);
  if (!found) throw new Error(`the text no longer holds the table "${name}"`);
  return found;
}

/** The comma-separated numbers after `label` in a text (across a line break). */
export function numbersAfter(text: string, label: string): number[] {
  const start = text.indexOf(label);
  if (start < 0) throw new Error(`the text no longer says "${label}"`);
  return text
    .slice(start + label.length)
    .split(/;|\n\n| coins/)[0]!
    .split(",")
    .map((x) => Number(x.trim()));
}

// ---------------------------------------------------------------------------------------------------
// Sections 1–3: commitment, stream, shared procedures

export const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
export const block = (serverSeed: string, clientSeed: string, nonce: number, r: number) =>
  createHmac("sha256", Buffer.from(serverSeed, "utf8")).update(`${clientSeed}:${nonce}:${r}`, "utf8").digest();

/** The stream of one nonce: float c is bytes 4·(c mod 8)… of block floor(c / 8), big-endian / 2³². */
export function stream(serverSeed: string, clientSeed: string, nonce: number) {
  let cursor = 0;
  return {
    next(): number {
      const bytes = block(serverSeed, clientSeed, nonce, Math.floor(cursor / 8));
      const value = bytes.readUInt32BE((cursor % 8) * 4) / 2 ** 32;
      cursor += 1;
      return value;
    },
    get cursor() {
      return cursor;
    },
  };
}
export type Stream = ReturnType<typeof stream>;

export const index = (s: Stream, n: number) => Math.floor(s.next() * n);
export const draw52 = (s: Stream) => BigInt(Math.floor(s.next() * 2 ** 26)) * 2n ** 26n + BigInt(Math.floor(s.next() * 2 ** 26));
export function pickAndRemove<T>(s: Stream, list: readonly T[], k: number): T[] {
  const left = [...list];
  return Array.from({ length: k }, () => left.splice(index(s, left.length), 1)[0]!);
}
/** A shoe of `decks` decks: the cards left in code order, each code as often as it is left. */
export function shoe(decks: number) {
  const copies = new Array<number>(52).fill(decks);
  let left = 52 * decks;
  return (s: Stream): number => {
    let i = index(s, left);
    for (let code = 0; code < 52; code++) {
      if (i < copies[code]!) {
        copies[code]! -= 1;
        left -= 1;
        return code;
      }
      i -= copies[code]!;
    }
    throw new Error("beyond the shoe");
  };
}
export const rank = (code: number) => Math.floor(code / 4) + 2;
export const die = (s: Stream) => index(s, 6) + 1;
export const big = (n: number) => BigInt(n);
export const floorRatio = (amount: number, num: bigint | number, den: bigint | number) => Number((big(amount) * BigInt(num)) / BigInt(den));

/**
 * Section 4: the exact payout amount × num / den made whole by the example's rounding rule. Rule 2 writes
 * it q + r/d in lowest terms and, when r > 0, draws v uniform below d from the next floats (words of 32
 * bits, by rejection) and pays q + 1 when v < r. No rule stated: rule 1, rounded down.
 */
export function pay(e: Example, s: Stream, amount: number, num: bigint | number, den: bigint | number): number {
  if (e.rounding !== 2) return floorRatio(amount, num, den);
  let n = big(amount) * BigInt(num);
  let d = BigInt(den);
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
  const g = gcd(n, d);
  [n, d] = [n / g, d / g];
  const [q, r] = [n / d, n % d];
  if (r === 0n) return Number(q);
  let words = 1;
  while (2n ** BigInt(32 * words) < d) words += 1;
  const span = 2n ** BigInt(32 * words);
  const limit = span - (span % d);
  for (;;) {
    let k = 0n;
    for (let i = 0; i < words; i++) k = k * 2n ** 32n + BigInt(s.next() * 2 ** 32);
    if (k < limit) return Number(q) + (k % d < r ? 1 : 0);
  }
}

// ---------------------------------------------------------------------------------------------------
// Section 6, game by game: what each example's floats must make.

/** What a derivation makes of an example: the floats drawn per step, the outcome fields and the payout. */
export interface Derived {
  /** the floats each step drew (the bet, then each action) */
  steps?: number[][];
  /** all floats the round drew, in order, where the split into steps is not re-derived */
  floats?: number[];
  outcome: Record<string, unknown>;
  /** the round's payout, where this verifier re-derives it (not for the hand-ranking games and craps) */
  payout?: number;
}

/** Runs `steps` (the bet, then one function per action) on the example's stream, recording the floats. */
export function run(e: Example, steps: ((s: Stream) => void)[]): number[][] {
  const s = stream(e.serverSeed, e.clientSeed, e.nonce);
  const drawn: number[][] = [];
  let seen: number[] = [];
  const recording: Stream = {
    next: () => {
      const f = s.next();
      seen.push(f);
      return f;
    },
    get cursor() {
      return s.cursor;
    },
  };
  for (const step of steps) {
    seen = [];
    step(recording);
    drawn.push(seen);
  }
  return drawn;
}

/** Checks a derivation against the example it was made from: commitment, floats, outcome, payout. */
export function expectDerived(e: Example, { steps, floats, outcome, payout }: Derived): void {
  expect(sha256(e.serverSeed)).toBe(e.serverSeedHash);
  if (steps) expect(steps).toEqual(e.floats);
  else expect(floats).toEqual(e.floats.flat());
  expect(e.outcome).toMatchObject(outcome);
  if (payout !== undefined) expect(payout).toBe(e.totalPayout);
}

/** A game's page as its derivation reads it: its tables and listed numbers. */
export interface PageText {
  table(name: string): Example;
  numbersAfter(label: string): number[];
}

/**
 * Registers, in a game's test file, the independent re-derivation of every worked example of that game
 * in the specification (its page's, and those the general sections give of it) by `derive`, written from
 * the page's mapping with the procedures above. common/test/fairness-independent.test.ts fails when a
 * game's test file does not call it.
 */
export function independentDerivation(game: string, derive: (e: Example, page: PageText) => Derived): void {
  const text = fairnessPage(game);
  const page: PageText = { table: (name) => tableIn(text, name), numbersAfter: (label) => numbersAfter(text, label) };
  const own = workedExamples(text);
  const inSpec = workedExamples(SPEC).filter((e) => e.example === game);
  const isOwn = (e: Example) => own.some((o) => JSON.stringify(o) === JSON.stringify(e));
  const general = inSpec.filter((e) => !isOwn(e));
  const label = (examples: Example[]) => examples.map((e) => [e.nonce as number, e] as const);
  describe(`${game}: an independent verifier written from its fairness page alone`, () => {
    it("has worked examples on its page, all in the published specification", () => {
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((e) => e.example === game)).toBe(true);
      expect(own.filter((e) => !inSpec.some((s) => JSON.stringify(s) === JSON.stringify(e)))).toEqual([]);
    });

    it.each(label(own))("re-derives its fairness page's worked example (nonce %i) from the mapping alone", (_, e) =>
      expectDerived(e, derive(e, page)),
    );

    if (general.length > 0) {
      it.each(label(general))("re-derives the general sections' worked example of it (nonce %i) from the mapping alone", (_, e) =>
        expectDerived(e, derive(e, page)),
      );
    }
  });
}
