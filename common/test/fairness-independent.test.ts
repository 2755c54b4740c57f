import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  block,
  expectDerived,
  index,
  numbersAfter,
  run,
  sha256,
  SPEC,
  stream,
  jsonBlocks,
  workedExamples,
  type Example,
} from "./fairness-pages";

/**
 * An independent verifier, written from docs/fairness.md alone: it imports nothing of the project, only
 * node:crypto (through ./fairness-pages), and reads the document's text for its tables. It re-derives the
 * general sections' test vectors here (the stream, the daily wheel); each game's worked examples are
 * re-derived from its page's mapping in the game's own test file, which this file requires of every
 * game with a page. Together they show the document is enough to verify a round without the project's
 * code.
 */
const GAMES_DIR = new URL("../src/games/", import.meta.url);
const gameTestFile = (game: string) => new URL(`games/${game}.test.ts`, import.meta.url);

/** The games with a fairness page (common/src/games/<game>/fairness.md). */
const gamesWithPages = readdirSync(GAMES_DIR).filter((name) => existsSync(new URL(`${name}/fairness.md`, GAMES_DIR)));

/** The daily wheel, section 6's last subsection. */
function deriveDailySpin(e: Example) {
  const prizes = numbersAfter(SPEC, "Twelve equal segments, in order: ");
  let segment = 0;
  const steps = run(e, [(s) => (segment = index(s, prizes.length))]);
  return { steps, outcome: { segment, prize: prizes[segment] }, payout: prizes[segment]! };
}

describe("an independent verifier written from docs/fairness.md alone", () => {
  it("reproduces the stream's test vector", () => {
    const v = jsonBlocks(SPEC).find((b) => b.example === "stream")!;
    expect(sha256(v.serverSeed)).toBe(v.serverSeedHash);
    expect([0, 1].map((r) => block(v.serverSeed, v.clientSeed, v.nonce, r).toString("hex"))).toEqual(v.blocks);
    const s = stream(v.serverSeed, v.clientSeed, v.nonce);
    expect(v.floats.map(() => s.next())).toEqual(v.floats);
  });

  const spins = workedExamples(SPEC).filter((e) => e.example === "daily-spin");
  it("has a worked example of the daily wheel", () => expect(spins.length).toBeGreaterThan(0));
  it.each(spins.map((e) => [e.nonce as number, e] as const))("re-derives the daily wheel's example (nonce %i)", (_, e) =>
    expectDerived(e, deriveDailySpin(e)),
  );

  it("finds the games' pages", () => {
    expect(gamesWithPages.length).toBeGreaterThan(10);
    expect(gamesWithPages).toContain("dice");
  });

  it.each(gamesWithPages)("has %s's own test file re-derive its examples from its page (independentDerivation)", (game) => {
    const file = gameTestFile(game);
    expect(existsSync(file), `common/test/games/${game}.test.ts is missing`).toBe(true);
    const call = new RegExp(`^independentDerivation\\(\\s*"${game}"\\s*,`, "m");
    expect(readFileSync(file, "utf8"), `common/test/games/${game}.test.ts does not call independentDerivation("${game}", …)`).toMatch(call);
  });

  it("leaves no worked example without a derivation: each is of the daily wheel or of a game with a page", () => {
    const underived = workedExamples(SPEC).filter((e) => e.example !== "daily-spin" && !gamesWithPages.includes(e.example));
    expect(underived.map((e) => `${e.example} (nonce ${e.nonce})`)).toEqual([]);
  });
});
