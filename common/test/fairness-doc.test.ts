import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bytesToHex } from "@noble/hashes/utils.js";
import { WHEEL_PRIZES } from "../src/constants";
import { blockFloats, hmacBlock, sha256Hex } from "../src/fairness/stream";
import { DAILY_SPIN } from "../src/constants";
import { formatVerification, verifyRound } from "../src/verifiers/verify";
import { ENGINES } from "../src/games/registry";
import { replayRound } from "../src/games/runner";
import { CRASH_CHAIN_SALT, describeCrashCashOut } from "../src/games/crash-chain";
import { FAIRNESS_DOC, FAIRNESS_TEMPLATE, fairnessDocFromSources, fairnessPageUrl } from "../scripts/fairness-doc";
import { jsonBlocks, numbersAfter, SPEC as DOC, workedExamples, type Example } from "./fairness-pages";

/**
 * docs/fairness.md is the published specification, assembled by `npm run docs:games` from its general
 * text (docs/fairness.template.md) and each chance game's page (common/src/games/<game>/fairness.md):
 * its worked examples (the ```json blocks) and its command transcripts are checked here against the
 * engines (a game's tables against its engine in the game's own test file), so the document cannot
 * drift from the code.
 */
const STALE = "docs/fairness.md differs from its general text and the games' pages: run `npm run docs:games`";

const blocks = jsonBlocks(DOC);
/** Each engine's page's worked examples (none when it has no page). */
const pageExamples = Object.keys(ENGINES).map((game) => {
  const page = fairnessPageUrl(game);
  return [game, existsSync(page) ? workedExamples(readFileSync(page, "utf8")) : []] as const;
});
const generalExamples = workedExamples(readFileSync(FAIRNESS_TEMPLATE, "utf8"));
const examples = [...pageExamples.flatMap(([, page]) => page), ...generalExamples];
const named = (list: readonly Example[]) => list.map((e) => [`${e.example} (nonce ${e.nonce})`, e] as const);

describe("docs/fairness.md", () => {
  it("is its general text with every chance game's page, in the catalogue's order", () => {
    expect(readFileSync(FAIRNESS_DOC, "utf8"), STALE).toBe(fairnessDocFromSources());
  });

  it.each(pageExamples)("gives the engine %s its own page with a worked example of it", (game, page) => {
    expect(page.length, `common/src/games/${game}/fairness.md is missing or has no worked example`).toBeGreaterThan(0);
    expect(page.every((e) => e.example === game)).toBe(true);
  });

  it("has a worked example of the daily wheel", () => {
    expect(generalExamples.some((e) => e.example === DAILY_SPIN)).toBe(true);
  });

  it("gives the float stream's test vector: HMAC blocks, floats and the commitment", () => {
    const stream = blocks.find((b) => b.example === "stream")!;
    const input = { serverSeed: stream.serverSeed, clientSeed: stream.clientSeed, nonce: stream.nonce };
    expect(sha256Hex(stream.serverSeed)).toBe(stream.serverSeedHash);
    expect(stream.blocks).toEqual([bytesToHex(hmacBlock(input, 0)), bytesToHex(hmacBlock(input, 1))]);
    expect(stream.floats).toEqual([...blockFloats(input, 0), ...blockFloats(input, 1)]);
  });

  it.each(named(examples))("re-derives the example %s through the engines", (_, e) => {
    const v = verifyRound({
      serverSeed: e.serverSeed,
      serverSeedHash: e.serverSeedHash,
      clientSeed: e.clientSeed,
      nonce: e.nonce,
      game: e.example,
      amount: e.amount,
      params: e.params,
      actions: e.actions,
      rounding: e.rounding,
    });
    expect(v.commitment.matches).toBe(true);
    expect(v.steps.map((s) => s.floats.map((f) => f.value))).toEqual(e.floats);
    expect(v.done).toBe(true);
    expect(v.view).toMatchObject(e.outcome);
    expect(v.totalStake).toBe(e.totalStake);
    expect(v.totalPayout).toBe(e.totalPayout);
  });

  // replayRound is the oracle the server tests check stored rounds against: it must reach the published
  // result too, not merely agree with the engine it loops over.
  it.each(named(examples.filter((e) => e.example !== DAILY_SPIN)))("replays the example %s to the published result", (_, e) => {
    const input = { serverSeed: e.serverSeed, clientSeed: e.clientSeed, nonce: e.nonce };
    const replay = replayRound(input, { game: e.example, amount: e.amount, params: e.params, actions: e.actions, rounding: e.rounding });
    expect(replay.steps).toHaveLength(e.floats.length);
    expect(replay.done).toBe(true);
    expect(replay.view).toMatchObject(e.outcome);
    expect(replay.totalStake).toBe(e.totalStake);
    expect(replay.totalPayout).toBe(e.totalPayout);
  });

  it("prints the same transcripts as npm run verify", () => {
    const transcripts = [...DOC.matchAll(/```\n\$ npm run verify -- (.*)\n([\s\S]*?)\n```/g)];
    expect(transcripts.length).toBeGreaterThanOrEqual(3);
    for (const [, command, output] of transcripts) {
      const args = shellWords(command!);
      const value = (name: string) => {
        const i = args.indexOf(`--${name}`);
        return i < 0 ? undefined : args[i + 1]!;
      };
      const json = (name: string) => (value(name) === undefined ? undefined : JSON.parse(value(name)!));
      if (value("crash-game-hash")) {
        // the crash-room mode: a cash-out of the shared room
        const { lines } = describeCrashCashOut(
          json("rounding") ?? 2,
          {
            gameHash: value("crash-game-hash")!,
            playerId: value("player")!,
            amount: Number(value("amount")),
            cashedOutAt: Math.round(Number(value("cashed-out-at")) * 100),
          },
          { terminatingHash: value("terminating-hash")!, salt: CRASH_CHAIN_SALT, length: Number(value("chain-length")) },
        );
        expect(lines.join("\n")).toBe(output);
        continue;
      }
      const v = verifyRound({
        serverSeed: value("server-seed")!,
        serverSeedHash: value("server-seed-hash"),
        clientSeed: value("client-seed")!,
        nonce: Number(value("nonce")),
        game: value("game")!,
        amount: value("amount") === undefined ? undefined : Number(value("amount")),
        params: json("params"),
        actions: json("actions"),
        rounding: json("rounding"),
      });
      expect(formatVerification(v)).toBe(output);
    }
  });

  // each game's page is checked against its engine's tables in the game's own test file
  it("lists the daily wheel's segments", () => {
    expect(numbersAfter(DOC, "Twelve equal segments, in order: ")).toEqual([...WHEEL_PRIZES]);
  });
});

/** Splits a command line into words, honouring single quotes (as a POSIX shell does). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2]!);
  return words;
}
