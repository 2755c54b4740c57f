import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bytesToHex } from "@noble/hashes/utils.js";
import { WHEEL_PRIZES } from "../src/constants";
import { blockFloats, hmacBlock, sha256Hex } from "../src/fairness/stream";
import { DAILY_SPIN, formatVerification, verifyRound } from "../src/fairness/verify";
import { PAY_TABLES } from "../src/games/keno/engine";
import { ENGINES } from "../src/games/registry";
import { replayRound } from "../src/games/runner";
import { RED_NUMBERS } from "../src/games/roulette/engine";
import { REELS } from "../src/games/slots/engine";
import { CRASH_CHAIN_SALT, describeCrashCashOut } from "../src/games/crash-chain";

/**
 * docs/fairness.md is the published specification: its worked examples (the ```json blocks), its tables
 * and its command transcripts are checked here against the engines, so the document cannot drift from
 * the code.
 */
const DOC = readFileSync(new URL("../../docs/fairness.md", import.meta.url), "utf8");

const jsonBlocks = [...DOC.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!) as Record<string, any>);
const examples = jsonBlocks.filter((b) => typeof b.example === "string" && b.example !== "stream");
const table = (name: string) => jsonBlocks.find((b) => b.table === name);

describe("docs/fairness.md", () => {
  it("has a worked example for every game and the daily wheel", () => {
    const covered = new Set(examples.map((e) => e.example));
    for (const game of [...Object.keys(ENGINES), DAILY_SPIN]) expect(covered.has(game), game).toBe(true);
  });

  it("gives the float stream's test vector: HMAC blocks, floats and the commitment", () => {
    const stream = jsonBlocks.find((b) => b.example === "stream")!;
    const input = { serverSeed: stream.serverSeed, clientSeed: stream.clientSeed, nonce: stream.nonce };
    expect(sha256Hex(stream.serverSeed)).toBe(stream.serverSeedHash);
    expect(stream.blocks).toEqual([bytesToHex(hmacBlock(input, 0)), bytesToHex(hmacBlock(input, 1))]);
    expect(stream.floats).toEqual([...blockFloats(input, 0), ...blockFloats(input, 1)]);
  });

  it.each(examples.map((e) => [`${e.example} (nonce ${e.nonce})`, e] as const))("re-derives the example %s through the engines", (_, e) => {
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
  it.each(examples.filter((e) => e.example !== DAILY_SPIN).map((e) => [`${e.example} (nonce ${e.nonce})`, e] as const))(
    "replays the example %s to the published result",
    (_, e) => {
      const input = { serverSeed: e.serverSeed, clientSeed: e.clientSeed, nonce: e.nonce };
      const replay = replayRound(input, { game: e.example, amount: e.amount, params: e.params, actions: e.actions, rounding: e.rounding });
      expect(replay.steps).toHaveLength(e.floats.length);
      expect(replay.done).toBe(true);
      expect(replay.view).toMatchObject(e.outcome);
      expect(replay.totalStake).toBe(e.totalStake);
      expect(replay.totalPayout).toBe(e.totalPayout);
    },
  );

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

  it("lists the engines' keno tables, reel strips, red numbers and wheel segments", () => {
    const { table: _k, ...keno } = table("keno-multipliers")!;
    expect(keno).toEqual(PAY_TABLES);
    expect(table("slots-reels")!.reels).toEqual(REELS);
    expect(numbersAfter("Red: ")).toEqual([...RED_NUMBERS]);
    expect(numbersAfter("Twelve equal segments, in order: ")).toEqual([...WHEEL_PRIZES]);
  });
});

/** The comma-separated numbers after `label` in the document's text (across a line break). */
function numbersAfter(label: string): number[] {
  const start = DOC.indexOf(label);
  expect(start, label).toBeGreaterThanOrEqual(0);
  const text = DOC.slice(start + label.length).split(/;|\n\n| coins/)[0]!;
  return text.split(",").map((s) => Number(s.trim()));
}

/** Splits a command line into words, honouring single quotes (as a POSIX shell does). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2]!);
  return words;
}
