import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CRASH_CHAIN_SALT,
  chainGameHash as gameHashOf,
  crashCashOutPayout,
  CRASH_CURVE_RATE,
  chainGameHash,
  chainTerminatingHash,
  crashMultiplierAt,
  crashPointHundredths,
  crashReachedAtMs,
  generateChain,
  verifyCrashGame,
} from "../../src/index";

describe("the shared crash room's chain and curve", () => {
  it("finds any game's hash and the commitment without building the chain, equal to generateChain", () => {
    const chain = generateChain("room seed", 300);
    expect(chainTerminatingHash("room seed", 300)).toBe(chain.terminatingHash);
    for (const n of [1, 2, 150, 299, 300]) expect(chainGameHash("room seed", 300, n)).toBe(chain.gameHashes[n - 1]);
    expect(() => chainGameHash("room seed", 300, 0)).toThrow();
    expect(() => chainGameHash("room seed", 300, 301)).toThrow();
  });

  it("a revealed game verifies against the commitment and gives its crash point", () => {
    const chain = generateChain("verify me", 100);
    const hash = chain.gameHashes[41]!;
    expect(verifyCrashGame({ gameHash: hash, terminatingHash: chain.terminatingHash, salt: CRASH_CHAIN_SALT, maxGames: 100 })).toEqual({
      gameNumber: 42,
      crashPointHundredths: Number(crashPointHundredths(hash, CRASH_CHAIN_SALT)),
    });
    expect(
      verifyCrashGame({ gameHash: hash, terminatingHash: chain.gameHashes[0]!, salt: CRASH_CHAIN_SALT, maxGames: 100 }).gameNumber,
    ).toBe(41);
  });

  it("the curve starts at 1.00×, follows e^(rate·t) rounded down, and never falls", () => {
    expect(crashMultiplierAt(0)).toBe(100);
    expect(crashMultiplierAt(-5)).toBe(100);
    // bustabit's curve: 2.00× after ln 2 / 0.00006 ≈ 11,552 ms.
    expect(crashMultiplierAt(11_552)).toBe(199);
    expect(crashMultiplierAt(11_553)).toBe(200);
    let last = 100;
    for (let t = 0; t < 200_000; t += 97) {
      const m = crashMultiplierAt(t);
      expect(m).toBeGreaterThanOrEqual(last);
      last = m;
    }
  });

  it("the bust time is the first millisecond at which the curve reaches the crash point", () => {
    for (const rate of [CRASH_CURVE_RATE, 0.004]) {
      for (const bust of [100, 101, 150, 199, 200, 1234, 100_000, 987_654_321]) {
        const t = crashReachedAtMs(bust, rate);
        expect(crashMultiplierAt(t, rate)).toBeGreaterThanOrEqual(bust);
        if (t > 0) expect(crashMultiplierAt(t - 1, rate)).toBeLessThan(bust);
      }
    }
    expect(crashReachedAtMs(100)).toBe(0);
  });
});

/** The crash room's worked example of docs/fairness.md section 4 (its ```json block with "crashRoom"). */
const DOC = readFileSync(new URL("../../../docs/fairness.md", import.meta.url), "utf8");
const example = [...DOC.matchAll(/```json\n([\s\S]*?)\n```/g)]
  .map((m) => JSON.parse(m[1]!) as Record<string, any>)
  .find((b) => b.crashRoom === "cash-out rounding")!;

describe("the shared crash room's cash-out rounding (docs/fairness.md section 4)", () => {
  it("the documented example: its chain, game and crash point", () => {
    expect(example).toBeDefined();
    expect(chainTerminatingHash(example.chainSeed, example.chainLength)).toBe(example.terminatingHash);
    expect(gameHashOf(example.chainSeed, example.chainLength, example.gameNumber)).toBe(example.gameHash);
    expect(
      verifyCrashGame({
        gameHash: example.gameHash,
        terminatingHash: example.terminatingHash,
        salt: example.salt,
        maxGames: example.chainLength,
      }),
    ).toEqual({ gameNumber: example.gameNumber, crashPointHundredths: example.crashPoint });
  });

  it.each([0, 1])("re-derives cash-out %i through the common code, and by hand with node:crypto", (i) => {
    const c = example.cashOuts[i];
    const bet = { gameHash: example.gameHash, playerId: example.playerId, amount: c.amount, cashedOutAt: c.cashedOutAt };
    const { payout, draw } = crashCashOutPayout(example.rounding, bet);
    expect(payout).toBe(c.payout);
    expect(draw?.drawn).toBe(BigInt(example.K));
    expect(draw?.v).toBe(BigInt(c.v));
    expect(draw?.cursors).toEqual([0]);
    // by hand: float #0 of HMAC-SHA256(key = game hash, "playerId:0:0"), its 32-bit word K, v = K mod d
    const block = createHmac("sha256", example.gameHash).update(`${example.playerId}:0:0`).digest();
    const K = block.readUInt32BE(0);
    expect(K).toBe(example.K);
    const exactN = c.amount * c.cashedOutAt;
    const g = gcd(exactN, 100);
    const [n, d] = [exactN / g, 100 / g];
    expect(K % d).toBe(c.v);
    expect(Math.floor(n / d) + (K % d < n % d ? 1 : 0)).toBe(c.payout);
    // rule 1, the rule of rounds played before rule 2: rounded down, nothing drawn
    expect(crashCashOutPayout(1, bet)).toEqual({ payout: Math.floor(n / d), draw: null });
  });

  it("each bet has its own draw: another player, or another game, draws another float", () => {
    const other = crashCashOutPayout(2, { gameHash: example.gameHash, playerId: "another-player", amount: 1, cashedOutAt: 198 });
    const later = crashCashOutPayout(2, {
      gameHash: gameHashOf(example.chainSeed, example.chainLength, 2),
      playerId: example.playerId,
      amount: 1,
      cashedOutAt: 198,
    });
    expect(other.draw?.drawn).not.toBe(BigInt(example.K));
    expect(later.draw?.drawn).not.toBe(BigInt(example.K));
  });

  it("a whole payout draws nothing, and the cap is paid without drawing", () => {
    expect(crashCashOutPayout(2, { gameHash: example.gameHash, playerId: example.playerId, amount: 10, cashedOutAt: 250 })).toEqual({
      payout: 25,
      draw: null,
    });
    expect(
      crashCashOutPayout(2, { gameHash: example.gameHash, playerId: example.playerId, amount: 1_000_000, cashedOutAt: 100_000_000 }),
    ).toEqual({ payout: 100_000_000, draw: null });
  });
});

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
