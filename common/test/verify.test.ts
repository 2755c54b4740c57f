import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { floatStream, sha256Hex } from "../src/fairness/stream";
import { DAILY_SPIN } from "../src/constants";
import { checkCommitment, formatVerification, openingStake, verifyRound } from "../src/verifiers/verify";
import { GameRuleError } from "../src/games/engine";
import { verifyShoe } from "../src/verifiers/verify-shoe";
import { ENGINES } from "../src/games/registry";
import { GAMES } from "../src/catalogue";
import { CASES, casesOf } from "./games/cases";
import type { Play } from "./games/case-support";
import { replayRound } from "../src/games/runner";
import { spinWheel } from "../src/games/wheel";
import { WHEEL_PRIZES } from "../src/constants";
import {
  verifierArgs as args,
  verifierInput as input,
  verifierSeeds as seeds,
  verifierServerSeed as serverSeed,
  verifyCli as cli,
} from "./helpers";

const chanceGames = GAMES.filter((g) => g.kind === "chance").map((g) => g.id);
/** Each game's plays (its cases file), by game and index. */
const PLAYS = chanceGames.flatMap((game) => casesOf(game).plays.map((play, i) => ({ game, i, play })));

/**
 * Plays a round to its end through the verifier itself, one action at a time, choosing from its views:
 * the first of the play's actions the verifier accepts.
 */
function playThrough(game: string, play: Play, nonce: number) {
  const actions: unknown[] = [];
  for (;;) {
    const v = verifyRound({ ...seeds(nonce), game, amount: play.amount, params: play.params, actions });
    if (v.done) return { v, actions };
    expect(play.act, `${game} left a round open`).toBeDefined();
    const accepted = play.act!(v.view).find((action) => {
      try {
        verifyRound({ ...seeds(nonce), game, amount: play.amount, params: play.params, actions: [...actions, action] });
        return true;
      } catch (e) {
        if (e instanceof GameRuleError) return false;
        throw e;
      }
    });
    expect(accepted, `${game}: no action was accepted after ${JSON.stringify(actions)}`).toBeDefined();
    actions.push(accepted);
    expect(actions.length).toBeLessThan(100);
  }
}

describe("the verifier", () => {
  it("covers every game the casino plays: each has its cases, and each cases file is a game's", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(ENGINES).sort());
  });

  it.each(PLAYS.map(({ game, i, play }) => [`${game} (play ${i + 1})`, game, play] as const))(
    "re-derives %s exactly as a replay of the round does, step by step",
    (_, game, play) => {
      for (const nonce of [0, 1, 2, 3, 4]) {
        const { v, actions } = playThrough(game, play, nonce);
        const replay = replayRound(seeds(nonce), { game, amount: play.amount, params: play.params, actions });
        expect(v.totalStake).toBe(replay.totalStake);
        expect(v.totalPayout).toBe(replay.totalPayout);
        expect(v.view).toEqual(replay.view);
        expect(v.steps.map((s) => [s.stake, s.payout, s.done])).toEqual(replay.steps.map((s) => [s.stake, s.payout, s.done]));
        // the floats are the stream's, in order: each step continues where the previous one stopped
        const all = v.steps.flatMap((s) => s.floats);
        const stream = floatStream(seeds(nonce));
        all.forEach((f, i) => {
          expect(f.cursor).toBe(i);
          expect(f.block).toBe(Math.floor(i / 8));
          expect(f.bytes).toEqual([(i % 8) * 4, (i % 8) * 4 + 3]);
          expect(f.value).toBe(stream.next());
        });
        expect(v.steps.every((s) => s.lines.length > 0)).toBe(true);
        expect(v.result).toBe(v.totalPayout > v.totalStake ? "win" : v.totalPayout === v.totalStake ? "push" : "lose");
      }
    },
  );

  const described = PLAYS.filter(({ play }) => play.verifierSays);
  it.each(described.map(({ game, i, play }) => [`${game} (play ${i + 1})`, game, play] as const))(
    "describes what each step of %s made, in words: cards by name, tiles, stops, dice, numbers",
    (_, game, play) => {
      const text = playThrough(game, play, 7)
        .v.steps.flatMap((s) => s.lines)
        .join("\n");
      expect(text).toMatch(play.verifierSays!);
    },
  );

  it("tells the payout before rounding where rule 2 rounded one, and nothing where none was rounded", () => {
    const seeds = { serverSeed: sha256Hex("exact payout"), clientSeed: "c" };
    const seen = new Set<number>();
    for (let nonce = 0; seen.size < 2 && nonce < 20_000; nonce++) {
      // a 1-coin coin flip win is 1.98, paid 1 or 2; a loss rounds nothing
      const v = verifyRound({ ...seeds, nonce, game: "coin-flip", amount: 1, params: { side: "heads" }, rounding: 2 });
      if (v.totalPayout === 0) {
        expect(v.exactPayout).toBeNull();
        continue;
      }
      expect(v.exactPayout).toBeCloseTo(1.98, 12);
      seen.add(v.totalPayout);
      // rule 1 records no fraction: the same win, rounded down, tells none
      expect(verifyRound({ ...seeds, nonce, game: "coin-flip", amount: 1, params: { side: "heads" }, rounding: 1 })).toMatchObject({
        totalPayout: 1,
        exactPayout: null,
      });
    }
    expect(seen).toEqual(new Set([1, 2]));
    // a whole payout draws nothing and has nothing to tell
    const whole = verifyRound({ ...seeds, nonce: 0, game: "coin-flip", amount: 50, params: { side: "heads" }, rounding: 2 });
    expect(whole.exactPayout).toBeNull();
  });

  it("verifies a daily spin: one float at cursor 0 of its nonce picks the segment", () => {
    const v = verifyRound({ ...seeds(9), game: DAILY_SPIN });
    const expected = spinWheel(floatStream(seeds(9)));
    expect(v.view).toEqual(expected);
    expect(v.totalPayout).toBe(WHEEL_PRIZES[expected.segment]);
    expect(v.steps[0]!.floats).toHaveLength(1);
    expect(v.steps[0]!.lines[0]).toBe(`segment = floor(${v.steps[0]!.floats[0]!.value} × 12) = ${expected.segment}`);
  });

  it("checks the server seed against the committed hash", () => {
    const hash = sha256Hex(serverSeed);
    expect(checkCommitment(serverSeed, hash.toUpperCase())).toEqual({ serverSeedHash: hash, expected: hash, matches: true });
    expect(checkCommitment(serverSeed, sha256Hex("another seed")).matches).toBe(false);
    expect(checkCommitment(serverSeed).matches).toBeNull();
    const v = verifyRound({
      ...seeds(0),
      serverSeedHash: sha256Hex("x"),
      game: "dice",
      amount: 100,
      params: { target: 50, direction: "under" },
    });
    expect(formatVerification(v)).toContain("commitment: DOES NOT MATCH");
  });

  it("takes a table game's opening amount from its chips, and asks for it otherwise", () => {
    const roulette = {
      bets: [
        { type: "odd", amount: 10 },
        { type: "corner", numbers: [1, 2, 4, 5], amount: 20 },
      ],
    };
    const craps = {
      bets: [
        { type: "pass", amount: 60 },
        { type: "field", amount: 40 },
      ],
    };
    expect(openingStake("roulette", roulette)).toBe(30);
    expect(openingStake("baccarat", { bets: { banker: 60, tie: 40 } })).toBe(100);
    expect(openingStake("three-card-poker", { ante: 5, pairPlus: 0 })).toBe(5);
    expect(openingStake("dice", { target: 50, direction: "under" })).toBeUndefined();
    expect(verifyRound({ ...seeds(0), game: "craps", params: craps }).totalStake).toBe(100);
    // every game's plays: a game with chips opens at their sum, the play's amount
    for (const { game, play } of PLAYS) expect([game, openingStake(game, play.params) ?? play.amount]).toEqual([game, play.amount]);
    const missing = (() => {
      try {
        verifyRound({ ...seeds(0), game: "dice", params: { target: 50, direction: "under" } });
      } catch (e) {
        return e;
      }
    })();
    expect(missing).toBeInstanceOf(GameRuleError);
    expect((missing as GameRuleError).code).toBe("invalid_amount");
  });

  it("refuses what no round could have been: an unknown game, bad params, an action after the end", () => {
    const code = (request: Parameters<typeof verifyRound>[0]) => {
      try {
        verifyRound(request);
      } catch (e) {
        if (e instanceof GameRuleError) return e.code;
        throw e;
      }
      return "verified";
    };
    expect(code({ ...seeds(0), game: "roulette-royale", amount: 1 })).toBe("unknown_game");
    expect(code({ ...seeds(0), game: "dice", amount: 100, params: { target: 99.5, direction: "under" } })).toBe("invalid_params");
    expect(code({ ...seeds(0), game: "dice", amount: 100, params: { target: 50, direction: "under" }, actions: [{ type: "roll" }] })).toBe(
      "round_over",
    );
    expect(code({ ...seeds(0), game: "mines", amount: 100, params: { mines: 3 }, actions: [{ type: "dig" }] })).toBe("invalid_action");
  });
});

describe("npm run verify", () => {
  it("prints the round step by step and checks the commitment (exit 0)", async () => {
    const { code, stdout } = await cli([...args, "--server-seed-hash", sha256Hex(input.serverSeed)]);
    expect(code).toBe(0);
    const expected = verifyRound({
      ...input,
      serverSeedHash: sha256Hex(input.serverSeed),
      game: "mines",
      amount: 100,
      params: { mines: 3 },
      actions: [
        { type: "reveal", tile: 4 },
        { type: "reveal", tile: 20 },
      ],
    });
    expect(stdout.trimEnd()).toBe(formatVerification(expected));
    expect(stdout).toContain("commitment: matches the hash shown before the seed was revealed");
  });

  it("prints JSON with --json, and exits 1 when the seed does not match the hash", async () => {
    const { code, stdout } = await cli([...args, "--json", "--server-seed-hash", sha256Hex("some other seed")]);
    expect(code).toBe(1);
    const parsed = JSON.parse(stdout);
    expect(parsed.commitment.matches).toBe(false);
    expect(parsed.steps[0].floats).toHaveLength(3);
    expect(parsed.game).toBe("mines");
  });

  it("explains a bad request and exits 2", async () => {
    const badJson = await cli([...args.slice(0, 10), "--params", "{mines:3}"]);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/^--params is not valid JSON/);
    const missing = await cli(["--game", "dice"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^missing --server-seed, --client-seed, --nonce/);
    const noAmount = await cli([
      "--server-seed",
      "s",
      "--client-seed",
      "c",
      "--nonce",
      "0",
      "--game",
      "dice",
      "--params",
      '{"target":50,"direction":"under"}',
    ]);
    expect(noAmount.code).toBe(2);
    expect(noAmount.stderr).toContain("cannot verify this round: Give the opening bet's amount");
  });

  it("re-derives a whole history with --history: every revealed round against its record, the others skipped (exit 1 when one differs)", async () => {
    const dice = { game: "dice", amount: 100, params: { target: 49.5, direction: "under" }, rounding: 2 as const };
    const rolled = verifyRound({ ...seeds(3), ...dice });
    const spin = verifyRound({ ...seeds(4), game: DAILY_SPIN });
    const row = (nonce: number, game: string, v: typeof rolled, extra: Record<string, unknown>) => ({
      id: `row-${nonce}`,
      kind: game === DAILY_SPIN ? "daily_spin" : "round",
      gameType: game,
      amount: null,
      betAmount: v.totalStake,
      result: v.result,
      payout: v.totalPayout,
      requestId: null,
      params: {},
      actions: [],
      rounding: null,
      outcome: v.view,
      createdAt: `2026-01-01T00:00:0${nonce}.000Z`,
      fairness: { serverSeedHash: sha256Hex(serverSeed), clientSeed: "verifier", nonce, serverSeed },
      ...extra,
    });
    const items = [
      row(3, "dice", rolled, { amount: 100, params: dice.params, rounding: 2 }),
      row(4, DAILY_SPIN, spin, {}),
      {
        ...row(5, "dice", rolled, {}),
        fairness: { serverSeedHash: sha256Hex(serverSeed), clientSeed: "verifier", nonce: 5, serverSeed: null },
      },
    ];
    const dir = mkdtempSync(join(tmpdir(), "history-"));
    try {
      const file = join(dir, "history.json");
      writeFileSync(file, JSON.stringify({ items, nextBefore: null }));
      const ok = await cli(["--history", file]);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain(formatVerification(verifyRound({ ...seeds(3), serverSeedHash: sha256Hex(serverSeed), ...dice })));
      expect(ok.stdout).toContain("skipped: its server seed is not revealed yet");
      expect(ok.stdout.trimEnd().split("\n").at(-1)).toBe("2 rounds re-derived: every one matches the record; 1 skipped");

      // A record that says more was paid than the seeds give: found, and the exit code says so.
      writeFileSync(file, JSON.stringify([{ ...items[0], payout: rolled.totalPayout + 1 }]));
      const bad = await cli(["--history", file, "--json"]);
      expect(bad.code).toBe(1);
      expect(JSON.parse(bad.stdout)[0].problems).toEqual([
        `recorded staked 100, paid ${rolled.totalPayout + 1} (${rolled.result}), re-derived staked 100, paid ${rolled.totalPayout} (${rolled.result})`,
      ]);

      // A file that is no history is explained (exit 2).
      writeFileSync(file, JSON.stringify({ items: [{ id: 1 }] }));
      const wrong = await cli(["--history", file]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr.split("\n")[0]).toMatch(/^--history: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("re-derives a whole table shoe from its record with --shoe (the worked example of section 7)", async () => {
    const doc = readFileSync(new URL("../../docs/fairness.md", import.meta.url), "utf8");
    const example = [...doc.matchAll(/```json\n([\s\S]*?)\n```/g)]
      .map((m) => JSON.parse(m[1]!) as Record<string, any>)
      .find((b) => b.shoe === "blackjack-table")!;
    const dir = mkdtempSync(join(tmpdir(), "shoe-"));
    const file = join(dir, "shoe.json");
    const { serverSeed, seats, rounds } = example;
    writeFileSync(file, JSON.stringify({ id: "example", serverSeed, serverSeedHash: example.serverSeedHash, seats, rounding: 1, rounds }));
    try {
      const ok = await cli(["--shoe", file]);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain("commitment: matches the hash shown before the shoe's first round");
      expect(ok.stdout).toContain("round 1: cards 0–12, dealer 2♠ A♥ 3♥ 10♥ K♣");
      expect(ok.stdout).toContain("  seat 1: 10♦ Q♠ win; staked 100, paid 200");
      expect(ok.stdout).toContain("  seat 5: 3♠ 4♦ 5♣ 8♥ win; staked 20, paid 40");
      const json = await cli(["--shoe", file, "--json"]);
      expect(JSON.parse(json.stdout)).toEqual(
        JSON.parse(JSON.stringify(verifyShoe({ serverSeed, serverSeedHash: example.serverSeedHash, seats, rounds }))),
      );
      const wrong = await cli(["--shoe", file, "--server-seed-hash", sha256Hex("another seed")]);
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toContain("DOES NOT MATCH");
      // With the outcomes the server's answer holds (here the example's own), every round is compared with them.
      const outcomes = (example.outcome as any[]).map((r) => ({
        dealer: r.dealer,
        seats: r.seats.map((x: any) => ({ seat: x.seat, hands: x.hands.map((h: any) => h.cards), staked: x.staked, payout: x.payout })),
      }));
      const withRecord = { id: "example", serverSeed, serverSeedHash: example.serverSeedHash, seats, rounding: 1, rounds, outcomes };
      writeFileSync(file, JSON.stringify(withRecord));
      const same = await cli(["--shoe", file]);
      expect(same.code).toBe(0);
      expect(same.stdout).toContain("round 1: cards 0–12, dealer 2♠ A♥ 3♥ 10♥ K♣\n  record: matches\n");
      expect(same.stdout.trimEnd().endsWith("every round matches the record")).toBe(true);
      outcomes[1].seats[0].payout += 1;
      writeFileSync(file, JSON.stringify(withRecord));
      const differs = await cli(["--shoe", file]);
      expect(differs.code).toBe(1);
      expect(differs.stdout).toContain("  record: DOES NOT MATCH (seat 1: recorded paid 1)\n");
      expect(differs.stdout).toContain("1 of 3 rounds DO NOT MATCH the record");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("npm run verify, crash-room mode", () => {
  // the worked example of docs/fairness.md section 4: game 1 of a 10-game chain, busting at 7.47×
  const game = ["--crash-game-hash", "c8b2fd5cd682cb3a9e49e2a43a76c2b8172d0ea78e7ba6b34d750d5b5a81ff61"];
  const player = ["--player", "0f8e2c4a-3b1d-4c6e-9a7f-5d2b8e1c0a93"];
  const chain = ["--terminating-hash", "47905471c3af7e42c016e241b4e99e7c5f7c985cfdba28fa843322256f08a108", "--chain-length", "10"];

  it("re-derives a cash-out's rounding and checks the game against the chain (exit 0), or says it does not (exit 1)", async () => {
    const ok = await cli([...game, ...player, "--amount", "1", "--cashed-out-at", "1.98", ...chain]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("chain: game 1 of the chain committed to 47905471");
    expect(ok.stdout).toContain("crash point 7.47×");
    expect(ok.stdout).toContain(
      "rounding 1 + 49/50 (1.98: pays 1 or 2, 1.98 on average): K = 3201063370 (float #0 × 2³²), v = K mod 50 = 20 < 49: pays 2",
    );
    expect(ok.stdout).toContain("crash room: staked 1, paid 2");
    // rule 1, the rounds played before rule 2: rounded down
    const old = await cli([...game, ...player, "--amount", "1", "--cashed-out-at", "1.98", "--rounding", "1"]);
    expect(old.stdout).toContain("crash room: staked 1, paid 1");
    // another commitment, or a cash-out above the crash point, does not check out
    const other = await cli([
      ...game,
      ...player,
      "--amount",
      "1",
      "--cashed-out-at",
      "1.98",
      ...chain.slice(0, 1),
      sha256Hex("x"),
      ...chain.slice(2),
    ]);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain("NOT in the chain");
    const above = await cli([...game, ...player, "--amount", "1", "--cashed-out-at", "8.00", ...chain]);
    expect(above.code).toBe(1);
    const bad = await cli([...game, "--amount", "1", "--cashed-out-at", "1.98"]);
    expect([bad.code, bad.stderr.split("\n")[0]]).toEqual([2, "missing --player"]);
  }, 60_000);
});
