import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { dealHoldemHand, describeHoldemHand, recordOfFile, checkHoldemRecord, holdemHandFile } from "../../src/games/holdem/deck";
import { jsonBlocks, SPEC } from "../fairness-pages";

/**
 * `npm run verify -- --holdem-hand` on a record file: the command started as a process (a second or more),
 * so in the stats tier (`npm run test:stats`); the deck's derivation is checked in holdem-deck.test.ts.
 */

/** docs/fairness.md section 8's worked example. */
const example = jsonBlocks(SPEC).find((b) => b.holdemDeck === "worked example")!;

describe("npm run verify -- --holdem-hand", () => {
  const run = promisify(execFile);
  const ROOT = new URL("../../../", import.meta.url).pathname;
  /** The worked example as a record file, with the outcome the table recorded. */
  const file = {
    serverSeed: example.serverSeed,
    serverSeedHash: example.serverSeedHash,
    seeds: example.seeds,
    start: {
      handNumber: example.handNumber,
      config: { smallBlind: example.smallBlind, bigBlind: example.bigBlind },
      button: example.button,
      smallBlindSeat: example.smallBlindSeat,
      bigBlindSeat: example.bigBlindSeat,
      seats: example.seeds.map((s: { seat: number }) => ({ seat: s.seat, playerId: `p${s.seat}`, stack: example.stack })),
    },
    actions: example.actions,
    outcome: { board: example.board, hole: example.hole, stacks: example.stacks },
  };
  const cli = async (record: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), "holdem-verify-"));
    const path = join(dir, "hand.json");
    writeFileSync(path, JSON.stringify(record));
    try {
      return await run(process.execPath, ["--import", "tsx", "common/scripts/verify.ts", "--holdem-hand", path], { cwd: ROOT }).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e) => ({ code: e.code as number, stdout: e.stdout as string }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("deals the recorded hand again, prints it and exits 0 when the record matches", async () => {
    const ok = await cli(file);
    expect(ok.code).toBe(0);
    const expected = describeHoldemHand(dealHoldemHand(recordOfFile(holdemHandFile.parse(file))));
    expect(ok.stdout.trimEnd()).toBe([...expected, "the hand matches the record"].join("\n"));
  });

  it("names what differs when the record's outcome is not the hand dealt again", () => {
    const dealt = dealHoldemHand(recordOfFile(holdemHandFile.parse(file)));
    expect(checkHoldemRecord(dealt, file.outcome)).toEqual([]);
    const stacks = example.stacks.map((s: { seat: number; stack: number }) => (s.seat === 4 ? { ...s, stack: s.stack + 1 } : s));
    const hole = [{ seat: 1, cards: [22, 3] }];
    expect(checkHoldemRecord(dealt, { board: [...example.board].reverse(), hole, stacks })).toEqual([
      "other board recorded",
      "seat 1: other hole cards recorded",
      "seat 4: recorded stack 217, dealt again 216",
    ]);
  });
});
