import { describe, expect, it } from "vitest";
import { fixedRng } from "../../src/fairness/stream";
import { requireEngine, startRound } from "../../src/games/runner";
import { type CoinFlipState, type CoinSide } from "../../src/games/coin-flip/engine";
import { ruleError } from "../helpers";
import { independentDerivation, pay, run } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";

const engine = requireEngine("coin-flip");

const flip = (side: CoinSide, f: number, amount = 100) => {
  const step = startRound(engine, amount, { side }, fixedRng([f]));
  return { step, state: step.state as CoinFlipState };
};

describe("coin flip rules", () => {
  it("maps the lower half of the floats to tails and the upper half (from 0.5) to heads", () => {
    expect(flip("heads", 0).state.outcome).toBe("tails");
    expect(flip("heads", 0.5 - 2 ** -32).state.outcome).toBe("tails"); // the last of the 2³¹ tails floats
    expect(flip("heads", 0.5).state.outcome).toBe("heads");
    expect(flip("heads", 1 - 2 ** -32).state.outcome).toBe("heads");
  });

  it("pays 1.98× on the called side, rounded down, and nothing otherwise", () => {
    expect(flip("heads", 0.75).step.payout).toBe(198);
    expect(flip("heads", 0.75).state.win).toBe(true);
    expect(flip("tails", 0.75).step.payout).toBe(0);
    expect(flip("tails", 0.25).step.payout).toBe(198);
    expect(flip("tails", 0.25, 1).step.payout).toBe(1); // 1.98
    expect(flip("tails", 0.25, 3).step.payout).toBe(5); // 5.94
    expect(engine.maxPayout(1_000_000, { side: "heads" })).toBe(1_980_000);
  });

  it("refuses bad parameters", () => {
    const refused = (params: unknown) => ruleError(() => startRound(engine, 100, params, fixedRng([0.5])));
    expect(refused({ side: "edge" }).code).toBe("invalid_params");
    expect(refused({ side: "Heads" }).code).toBe("invalid_params");
    expect(refused({}).code).toBe("invalid_params");
    expect(refused({ side: "heads", target: 2 }).message).toMatch(/target/);
  });
});

describe("coin flip RTP", () => {
  it("is exactly 99 % on each side", () => {
    const rows = exactRtpOf("coin-flip");
    expect(rows.map((r) => r.bet).sort()).toEqual(["heads", "tails"]);
    for (const row of rows) expect(row.rtp).toBe(0.99);
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("coin-flip", (e) => {
  let side = "";
  let payout = 0;
  const steps = run(e, [
    (s) => {
      side = s.next() < 0.5 ? "tails" : "heads";
      if (side === e.params.side) payout = pay(e, s, e.amount, 198, 100);
    },
  ]);
  return { steps, outcome: { outcome: side, win: side === e.params.side }, payout };
});
