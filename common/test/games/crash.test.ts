import { describe, expect, it } from "vitest";
import { fixedRng, float52, hmacSha256Hex, sha256Hex } from "../../src/fairness/stream";
import { bustHundredths, crashPoint, crashPointHundredths, generateChain, verifyChainElement } from "../../src/games/crash-chain";
import { type CrashState } from "../../src/games/crash/engine";
import { requireEngine, startRound } from "../../src/games/runner";
import { MAX_PAYOUT } from "../../src/limits";
import { CURVE_TARGETS, curveRtp } from "../../src/games/limbo/rtp";
import { ruleError } from "../helpers";
import { draw52, floorRatio, independentDerivation, run } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";

const engine = requireEngine("crash");
const SPAN = 2n ** 52n;

// bustabit's second seeding event (game-rules B5): its published terminating hash and salt, and the
// hash of its game #1,000 as quoted by an independent verifier's test suite.
const BUSTABIT_TERMINATING = "86728f5fc3bd99db94d3cdaf105d67788194e9701bf95d049ad0e1ee3d004277";
const BUSTABIT_SALT = "0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526";
const BUSTABIT_GAME_1000 = "216f014579a1cff543b210d0b03967a107a81f6a6240bb39927b453cb9791fa6";

/** bustabit's published gameResult, step for step in floating point: an independent reference. */
function publishedGameResult(seed: string, salt: string): number {
  const hmac = hmacSha256Hex(salt, seed);
  const r = parseInt(hmac.slice(0, 52 / 4), 16);
  const X = 99 / (1 - r / 2 ** 52);
  return Math.max(1, Math.floor(X) / 100);
}

/** The two floats whose top 26 bits make the 52-bit draw r. */
const floatsFor = (r: bigint): number[] => [(Number(r >> 26n) + 0.5) / 2 ** 26, (Number(r & (2n ** 26n - 1n)) + 0.5) / 2 ** 26];

const play = (cashOutAt: number, r: bigint, amount = 100) => {
  const step = startRound(engine, amount, { cashOutAt }, fixedRng(floatsFor(r)));
  return { step, state: step.state as CrashState };
};

describe("crash hash chain", () => {
  it("links every game hash to the next one by SHA-256 of its hex, ending in the terminating hash", () => {
    const seed = "a secret start value";
    const chain = generateChain(seed, 50);
    expect(chain.gameHashes).toHaveLength(50);
    expect(chain.gameHashes[49]).toBe(sha256Hex(seed)); // the last game uses the first element
    for (let i = 0; i + 1 < 50; i++) expect(sha256Hex(chain.gameHashes[i + 1]!)).toBe(chain.gameHashes[i]);
    expect(sha256Hex(chain.gameHashes[0]!)).toBe(chain.terminatingHash);
    expect(chain.gameHashes).not.toContain(seed);
    expect(new Set(chain.gameHashes).size).toBe(50);
  });

  it("verifies game n by hashing it n times, and rejects hashes off the chain", () => {
    const chain = generateChain("another secret", 200);
    for (const n of [1, 2, 17, 200]) {
      expect(verifyChainElement(chain.gameHashes[n - 1]!, chain.terminatingHash, 200)).toBe(n);
    }
    expect(verifyChainElement(chain.gameHashes[99]!.toUpperCase(), chain.terminatingHash.toUpperCase(), 200)).toBe(100);
    expect(verifyChainElement(chain.gameHashes[99]!, chain.terminatingHash, 99)).toBeNull();
    expect(verifyChainElement(sha256Hex("not on the chain"), chain.terminatingHash, 500)).toBeNull();
    expect(verifyChainElement(chain.terminatingHash, chain.terminatingHash, 500)).toBeNull();
  });

  it("verifies a real published chain: bustabit's game #1,000", () => {
    expect(verifyChainElement(BUSTABIT_GAME_1000, BUSTABIT_TERMINATING, 2_000)).toBe(1_000);
    expect(verifyChainElement(BUSTABIT_GAME_1000, BUSTABIT_TERMINATING, 999)).toBeNull();
  });

  it("computes crash points exactly as bustabit's published gameResult", () => {
    expect(crashPoint(BUSTABIT_GAME_1000, BUSTABIT_SALT)).toBe(publishedGameResult(BUSTABIT_GAME_1000, BUSTABIT_SALT));
    const chain = generateChain("reference check", 2_000);
    for (const hash of chain.gameHashes) {
      expect(crashPoint(hash, BUSTABIT_SALT)).toBe(publishedGameResult(hash, BUSTABIT_SALT));
    }
    // the key is the salt and the message the game hash: swapping them changes the result
    const swapped = chain.gameHashes.filter((h) => crashPoint(h, BUSTABIT_SALT) !== publishedGameResult(BUSTABIT_SALT, h));
    expect(swapped.length).toBeGreaterThan(1_900);
  });

  it("maps the 52-bit value on the curve max(1, floor(99 / (1 − X)) / 100)", () => {
    expect(bustHundredths(0n)).toBe(100n); // 0.99 → 1.00
    expect(bustHundredths(SPAN / 2n)).toBe(198n);
    expect(bustHundredths(SPAN - SPAN / 1024n)).toBe(101_376n); // 99 · 2¹⁰
    expect(bustHundredths(SPAN - 1n)).toBe(99n * SPAN);
    expect(crashPointHundredths(BUSTABIT_GAME_1000, BUSTABIT_SALT)).toBe(
      BigInt(Math.round(publishedGameResult(BUSTABIT_GAME_1000, BUSTABIT_SALT) * 100)),
    );
  });

  it("busts at 1.00× in 1.98 % of games (2/101 of the draws, to 2⁻⁵²)", () => {
    // 1.00 exactly when floor(99·2⁵²/(2⁵² − r)) ≤ 100, i.e. when the draw does not reach 101 hundredths
    const instant = SPAN - (99n * SPAN) / 101n;
    expect(bustHundredths(instant - 1n)).toBe(100n);
    expect(bustHundredths(instant)).toBe(101n);
    expect(Math.abs(Number(instant) / 2 ** 52 - 2 / 101)).toBeLessThan(2 ** -51);
  });
});

describe("crash (single player) rules", () => {
  it("draws the crash point from the player's stream with float52 and the chain's curve", () => {
    for (const r of [0n, 12_345n, SPAN / 3n, SPAN - 7n]) {
      expect(BigInt(float52(fixedRng(floatsFor(r))) * 2 ** 52)).toBe(r);
      expect(play(2, r).state.crashPoint).toBe(Number(bustHundredths(r)) / 100);
    }
    expect(play(1.01, 0n).state).toEqual({ cashOutAt: 1.01, crashPoint: 1, win: false });
  });

  it("wins when the crash point reaches the cash-out and pays amount × cash-out, rounded down", () => {
    expect(play(1.98, SPAN / 2n).step.payout).toBe(198); // crash 1.98 ≥ 1.98
    expect(play(1.99, SPAN / 2n).step.payout).toBe(0);
    expect(play(1.5, SPAN / 2n, 3).step.payout).toBe(4); // 4.5
    for (const cashOutAt of [1.01, 2, 7.77, 1_000_000]) {
      const t = BigInt(Math.round(cashOutAt * 100));
      const first = SPAN - (99n * SPAN) / t; // first draw that reaches the cash-out
      expect(play(cashOutAt, first).state.win).toBe(true);
      expect(play(cashOutAt, first - 1n).state.win).toBe(false);
    }
  });

  it("caps the payout and reports the most a bet can pay", () => {
    expect(play(1_000_000, SPAN - 1n, 1_000).step.payout).toBe(MAX_PAYOUT);
    expect(engine.maxPayout(100, { cashOutAt: 2.5 })).toBe(250);
    expect(engine.maxPayout(1_000, { cashOutAt: 1_000_000 })).toBe(MAX_PAYOUT);
  });

  it("refuses bad parameters", () => {
    const refused = (params: unknown) => ruleError(() => startRound(engine, 100, params, fixedRng([0.5, 0.5])));
    expect(refused({ cashOutAt: 2.005 }).message).toMatch(/two decimals/);
    expect(refused({ cashOutAt: 1 }).code).toBe("invalid_params");
    expect(refused({ cashOutAt: 1_000_000.01 }).code).toBe("invalid_params");
    expect(refused({ cashOutAt: "2" }).code).toBe("invalid_params");
    expect(refused({}).code).toBe("invalid_params");
    expect(refused({ cashOutAt: 2, target: 2 }).message).toMatch(/target/);
  });
});

describe("crash RTP", () => {
  it("is 99 % to 2⁻⁵² for every tabled cash-out, never above", () => {
    for (const row of exactRtpOf("crash")) expect(Math.abs(row.rtp - 0.99)).toBeLessThan(1e-9);
    for (const target of CURVE_TARGETS) {
      const rtp = curveRtp(BigInt(Math.round(target * 100)));
      expect(100n * rtp.n <= 99n * rtp.d).toBe(true);
    }
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("crash", (e) => {
  let r = 0n;
  const steps = run(e, [(s) => (r = draw52(s))]);
  const raw = (99n * 2n ** 52n) / (2n ** 52n - r);
  const point = raw < 100n ? 100n : raw;
  const x = BigInt(Math.round(e.params.cashOutAt * 100));
  const win = point >= x;
  return { steps, outcome: { crashPoint: Number(point) / 100, win }, payout: win ? floorRatio(e.amount, x, 100) : 0 };
});
