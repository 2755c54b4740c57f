import { describe, expect, it } from "vitest";
import {
  CRASH_CHAIN_SALT,
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
