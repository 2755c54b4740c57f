import { describe, expect, it } from "vitest";
import { fixedRng, floatStream, type Rng } from "../../src/fairness/stream";
import { crapsEngine, crapsParams, type CrapsState } from "../../src/games/craps/engine";
import { floatForFace } from "../../src/games/dice-faces";
import { type Step } from "../../src/games/engine";
import { actRound, replayRound, requireEngine, startRound } from "../../src/games/runner";
import { ruleError } from "../helpers";
import { die, independentDerivation, pay, run, type Stream } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";
import { sumOf } from "./craps.cases";

const engine = requireEngine("craps");
type Dice = [number, number];
const floats = (...rolls: Dice[]) => rolls.flatMap(([a, b]) => [floatForFace(a), floatForFace(b)]);
/** A round driven by hand-made dice: every step goes through the real runner. */
class Table {
  step: Step<unknown>;
  staked: number;
  paid: number;
  constructor(bets: object[], first: Dice) {
    const list = bets as { amount: number }[];
    this.step = startRound(engine, sumOf(list), { bets }, fixedRng(floats(first)));
    this.staked = this.step.stake;
    this.paid = this.step.payout;
  }
  get state() {
    return this.step.state as CrapsState;
  }
  private act(action: object, rng: Rng) {
    this.step = actRound(engine, this.step.state, action, rng);
    this.staked += this.step.stake;
    this.paid += this.step.payout;
    return this.step;
  }
  roll(dice: Dice) {
    return this.act({ type: "roll" }, fixedRng(floats(dice)));
  }
  bet(...bets: object[]) {
    return this.act({ type: "bet", bets }, fixedRng([]));
  }
  takeDown(bet: string, number?: number) {
    return this.act({ type: "takeDown", bet, ...(number === undefined ? {} : { number }) }, fixedRng([]));
  }
}

describe("craps: the come-out roll", () => {
  it("pays pass 1:1 on a natural and loses don't pass", () => {
    for (const dice of [
      [3, 4],
      [5, 6],
    ] as Dice[]) {
      const t = new Table(
        [
          { type: "pass", amount: 10 },
          { type: "dontPass", amount: 5 },
        ],
        dice,
      );
      expect(t.step.payout).toBe(20);
      expect(t.step.done).toBe(true);
      expect(t.state.settled.map((s) => s.result)).toEqual(["win", "lose"]);
    }
  });

  it("loses pass on craps; don't pass wins on 2 and 3 and pushes on 12 (bar 12)", () => {
    for (const [dice, dontPays] of [
      [[1, 1], 20],
      [[1, 2], 20],
      [[6, 6], 10],
    ] as [Dice, number][]) {
      const t = new Table(
        [
          { type: "pass", amount: 10 },
          { type: "dontPass", amount: 10 },
        ],
        dice,
      );
      expect(t.step.payout).toBe(dontPays);
      expect(t.step.done).toBe(true);
    }
    const bar = new Table([{ type: "dontPass", amount: 10 }], [6, 6]);
    expect(bar.state.settled[0]!.result).toBe("push");
    expect(bar.paid).toBe(bar.staked);
  });

  it("rolls one float per die, face = floor(f × 6) + 1, and sets the point", () => {
    const step = startRound(engine, 1, { bets: [{ type: "pass", amount: 1 }] }, fixedRng([0, 0.999999]));
    expect((step.state as CrapsState).rolls).toEqual([[1, 6]]);
    const t = new Table([{ type: "pass", amount: 1 }], [2, 4]);
    expect(t.state.point).toBe(6);
    expect(t.step.done).toBe(false);
    expect(t.step.payout).toBe(0);
  });
});

describe("craps: point cycles", () => {
  it("pays pass when the point is made and turns the point off", () => {
    const t = new Table([{ type: "pass", amount: 10 }], [2, 4]);
    expect(t.roll([5, 6]).payout).toBe(0); // 11 means nothing once a point is on
    expect(t.roll([1, 1]).payout).toBe(0);
    const made = t.roll([5, 1]);
    expect(made.payout).toBe(20);
    expect(made.done).toBe(true);
    expect(t.state.point).toBeNull();
  });

  it("loses pass and pays don't pass on a seven-out", () => {
    const t = new Table(
      [
        { type: "pass", amount: 10 },
        { type: "dontPass", amount: 10 },
      ],
      [4, 4],
    );
    const out = t.roll([3, 4]);
    expect(out.payout).toBe(20);
    expect(t.state.settled.map((s) => [s.type, s.result])).toEqual([
      ["pass", "lose"],
      ["dontPass", "win"],
    ]);
    expect(out.done).toBe(true);
  });

  it("pays odds at true odds: 2:1, 3:2, 6:5 behind pass; 1:2, 2:3, 5:6 laid behind don't pass", () => {
    for (const [point, odds, back] of [
      [4, 30, 90],
      [5, 40, 100],
      [6, 50, 110],
      [8, 50, 110],
      [9, 40, 100],
      [10, 30, 90],
    ]) {
      const t = new Table([{ type: "pass", amount: 10 }], [point! <= 7 ? 1 : 4, point! <= 7 ? point! - 1 : point! - 4]);
      t.bet({ type: "passOdds", amount: odds });
      expect(t.step.stake).toBe(odds);
      const made = t.roll([point! <= 7 ? 2 : 5, point! <= 7 ? point! - 2 : point! - 5]);
      expect(made.payout).toBe(20 + back!);
    }
    for (const [point, lay, back] of [
      [4, 60, 90],
      [5, 60, 100],
      [6, 60, 110],
      [10, 60, 90],
    ]) {
      const t = new Table([{ type: "dontPass", amount: 10 }], [point! <= 7 ? 1 : 4, point! <= 7 ? point! - 1 : point! - 4]);
      t.bet({ type: "dontPassOdds", amount: lay });
      expect(t.roll([6, 1]).payout).toBe(20 + back!);
    }
  });

  it("rounds odds payouts down to whole coins", () => {
    const t = new Table([{ type: "pass", amount: 2 }], [2, 3]);
    t.bet({ type: "passOdds", amount: 3 }); // 3 at 3:2 returns 7.5
    expect(t.roll([4, 1]).payout).toBe(4 + 7);
  });

  it("moves a come bet to its own point, pays it there with its odds, and keeps the pass line apart", () => {
    const t = new Table([{ type: "pass", amount: 10 }], [1, 3]); // point 4
    expect(t.bet({ type: "come", amount: 10 }).stake).toBe(10);
    expect(t.roll([4, 5]).payout).toBe(0); // the come bet travels to 9
    expect(t.state.bets.find((b) => b.type === "come")).toMatchObject({ number: 9, amount: 10, odds: 0 });
    t.bet({ type: "comeOdds", number: 9, amount: 40 });
    const passWins = t.roll([2, 2]);
    expect(passWins.payout).toBe(20);
    expect(passWins.done).toBe(false);
    expect(t.state.point).toBeNull();
    const comeWins = t.roll([6, 3]); // a 9 on the come-out still decides the come bet on 9
    expect(comeWins.payout).toBe(20 + 100);
    expect(comeWins.done).toBe(true);
    expect(t.paid - t.staked).toBe(10 + 10 + 60);
  });

  it("settles a come bet's first roll like a come-out, including bar 12 for don't come", () => {
    const t = new Table([{ type: "pass", amount: 5 }], [3, 3]);
    t.bet({ type: "come", amount: 5 }, { type: "dontCome", amount: 5 });
    expect(t.roll([5, 6]).payout).toBe(10); // come wins on 11, don't come loses
    t.bet({ type: "come", amount: 5 }, { type: "dontCome", amount: 5 });
    expect(t.roll([6, 6]).payout).toBe(5); // come loses on 12, don't come pushes
    t.bet({ type: "dontCome", amount: 5 });
    expect(t.roll([2, 3]).payout).toBe(0); // don't come travels to 5
    t.bet({ type: "dontComeOdds", number: 5, amount: 30 });
    const sevenOut = t.roll([3, 4]);
    expect(sevenOut.payout).toBe(10 + 50); // pass loses; don't come wins with lay odds at 2:3
    expect(sevenOut.done).toBe(true);
  });

  it("loses come bets on their points to a come-out seven while the pass line wins", () => {
    const t = new Table([{ type: "pass", amount: 10 }], [5, 5]);
    t.bet({ type: "come", amount: 10 });
    t.roll([3, 3]); // come to 6
    expect(t.roll([6, 4]).payout).toBe(20); // point 10 made
    const seven = t.roll([4, 3]);
    expect(seven.payout).toBe(0);
    expect(seven.done).toBe(true);
  });
});

describe("craps: the other bets", () => {
  it("pays the field: 2 at 2:1, 12 at 3:1, 3/4/9/10/11 at 1:1, nothing on 5-8", () => {
    const field = (dice: Dice) => new Table([{ type: "field", amount: 10 }], dice);
    expect(field([1, 1]).step.payout).toBe(30);
    expect(field([6, 6]).step.payout).toBe(40);
    for (const dice of [
      [1, 2],
      [2, 2],
      [4, 5],
      [5, 5],
      [5, 6],
    ] as Dice[])
      expect(field(dice).step.payout).toBe(20);
    for (const dice of [
      [1, 4],
      [3, 3],
      [3, 4],
      [4, 4],
    ] as Dice[]) {
      const t = field(dice);
      expect(t.step.payout).toBe(0);
      expect(t.step.done).toBe(true);
    }
  });

  it("pays place bets 9:5, 7:5, 7:6, keeps them up until decided, and loses them on a seven", () => {
    const t = new Table(
      [
        { type: "place", number: 6, amount: 12 },
        { type: "place", number: 5, amount: 10 },
        { type: "place", number: 4, amount: 10 },
      ],
      [3, 3],
    );
    expect(t.step.payout).toBe(26);
    expect(t.roll([1, 1]).payout).toBe(0);
    expect(t.roll([4, 1]).payout).toBe(24);
    expect(t.state.bets).toHaveLength(1);
    const seven = t.roll([5, 2]);
    expect(seven.payout).toBe(0);
    expect(seven.done).toBe(true);
  });

  it("pays hardways 9:1 and 7:1 on the double, loses them on the easy way or a seven", () => {
    expect(new Table([{ type: "hard", number: 8, amount: 10 }], [4, 4]).step.payout).toBe(100);
    expect(new Table([{ type: "hard", number: 4, amount: 10 }], [2, 2]).step.payout).toBe(80);
    const easy = new Table([{ type: "hard", number: 8, amount: 10 }], [5, 3]);
    expect([easy.step.payout, easy.step.done]).toEqual([0, true]);
    const t = new Table([{ type: "hard", number: 10, amount: 10 }], [6, 2]);
    expect(t.step.done).toBe(false);
    expect(t.roll([6, 1]).payout).toBe(0);
  });

  it("pays any seven 4:1 and any craps 7:1 on one roll", () => {
    expect(new Table([{ type: "anySeven", amount: 10 }], [6, 1]).step.payout).toBe(50);
    expect(new Table([{ type: "anySeven", amount: 10 }], [6, 2]).step.payout).toBe(0);
    for (const dice of [
      [1, 1],
      [1, 2],
      [6, 6],
    ] as Dice[]) {
      expect(new Table([{ type: "anyCraps", amount: 10 }], dice).step.payout).toBe(80);
    }
    expect(new Table([{ type: "anyCraps", amount: 10 }], [5, 6]).step.payout).toBe(0);
  });
});

describe("craps: betting rules", () => {
  it("refuses a mismatched amount and bets that do not fit the table", () => {
    expect(ruleError(() => startRound(engine, 5, { bets: [{ type: "pass", amount: 10 }] }, fixedRng([0.1, 0.2]))).code).toBe(
      "invalid_amount",
    );
    expect(ruleError(() => new Table([{ type: "come", amount: 10 }], [1, 2])).code).toBe("no_point");
    expect(ruleError(() => new Table([{ type: "passOdds", amount: 10 }], [1, 2])).code).toBe("no_bet_for_odds");
    const t = new Table(
      [
        { type: "pass", amount: 10 },
        { type: "place", number: 8, amount: 6 },
      ],
      [2, 2],
    );
    expect(ruleError(() => t.bet({ type: "pass", amount: 5 })).code).toBe("point_established");
    expect(ruleError(() => t.bet({ type: "dontPassOdds", amount: 5 })).code).toBe("no_bet_for_odds");
    expect(ruleError(() => t.bet({ type: "comeOdds", number: 6, amount: 5 })).code).toBe("no_bet_for_odds");
    expect(ruleError(() => t.bet({ type: "place", number: 7, amount: 5 })).message).toContain("4, 5, 6, 8, 9 or 10");
    expect(ruleError(() => t.bet({ type: "hard", number: 5, amount: 5 })).message).toContain("4, 6, 8 or 10");
  });

  it("limits odds to 3-4-5× behind pass/come and 6× laid behind don't", () => {
    const t = new Table(
      [
        { type: "pass", amount: 10 },
        { type: "dontPass", amount: 10 },
      ],
      [3, 1],
    );
    t.bet({ type: "passOdds", amount: 20 });
    expect(ruleError(() => t.bet({ type: "passOdds", amount: 11 })).code).toBe("odds_limit");
    t.bet({ type: "passOdds", amount: 10 });
    t.bet({ type: "dontPassOdds", amount: 60 });
    expect(ruleError(() => t.bet({ type: "dontPassOdds", amount: 1 })).code).toBe("odds_limit");
    const six = new Table([{ type: "pass", amount: 10 }], [3, 3]);
    six.bet({ type: "passOdds", amount: 50 });
    expect(ruleError(() => six.bet({ type: "passOdds", amount: 1 })).code).toBe("odds_limit");
    const five = new Table([{ type: "pass", amount: 10 }], [3, 2]);
    expect(ruleError(() => five.bet({ type: "passOdds", amount: 41 })).message).toContain("at most 40");
  });

  it("takes down place bets, hardways, odds and don't bets, but never a pass or come bet with a point", () => {
    const t = new Table(
      [
        { type: "pass", amount: 10 },
        { type: "dontPass", amount: 10 },
        { type: "place", number: 9, amount: 5 },
        { type: "hard", number: 6, amount: 2 },
      ],
      [5, 5],
    );
    t.bet({ type: "passOdds", amount: 30 }, { type: "dontPassOdds", amount: 12 }, { type: "come", amount: 4 });
    t.roll([4, 4]); // come to 8
    expect(ruleError(() => t.takeDown("pass")).code).toBe("contract_bet");
    expect(ruleError(() => t.takeDown("come", 8)).code).toBe("contract_bet");
    expect(ruleError(() => t.takeDown("place", 5)).code).toBe("no_such_bet");
    expect(ruleError(() => t.takeDown("place")).code).toBe("invalid_action");
    expect(t.takeDown("place", 9).payout).toBe(5);
    expect(t.takeDown("hard", 6).payout).toBe(2);
    expect(t.takeDown("passOdds").payout).toBe(30);
    expect(t.takeDown("dontPass").payout).toBe(10 + 12); // the lay odds come down with it
    expect(t.step.stake).toBe(0);
    expect(t.step.done).toBe(false);
    expect(t.state.bets.map((b) => b.type)).toEqual(["pass", "come"]);
    t.roll([6, 4]); // pass wins
    expect(t.state.bets.map((b) => b.type)).toEqual(["come"]);
    t.bet({ type: "pass", amount: 3 });
    expect(t.takeDown("pass").payout).toBe(3); // no point yet: it may come down
  });

  it("ends the round when the last bet is taken down, and refuses to act after that", () => {
    const t = new Table([{ type: "place", number: 6, amount: 6 }], [2, 2]);
    const down = t.takeDown("place", 6);
    expect(down.done).toBe(true);
    expect(t.paid).toBe(t.staked);
    expect(ruleError(() => crapsEngine.act!(t.state, { type: "roll" }, fixedRng(floats([1, 1])))).code).toBe("round_over");
  });

  it("shows the most the opening bets can pay", () => {
    const max = (bets: object[]) => crapsEngine.maxPayout(sumOf(bets as { amount: number }[]), crapsParams.parse({ bets }));
    expect(max([{ type: "pass", amount: 10 }])).toBe(20);
    expect(
      max([
        { type: "field", amount: 10 },
        { type: "anySeven", amount: 10 },
      ]),
    ).toBe(50);
    // hard 6 on the first roll pays the hardway, the place 6 and sets the point; the pass wins later
    expect(
      max([
        { type: "pass", amount: 10 },
        { type: "place", number: 6, amount: 6 },
        { type: "hard", number: 6, amount: 1 },
      ]),
    ).toBe(20 + 13 + 10);
    // a first-roll 3 wins the don't pass, and the place 4 can still win after it
    expect(
      max([
        { type: "dontPass", amount: 100 },
        { type: "place", number: 4, amount: 5 },
      ]),
    ).toBe(214);
  });
});

describe("craps: exact return and Monte Carlo", () => {
  it("matches the house edges of game-rules A11", () => {
    const rows = exactRtpOf("craps");
    const byBet = new Map(rows.map((r) => [r.bet, r]));
    expect(byBet.get("pass line")!.rtp).toBe(488 / 495);
    expect(byBet.get("don't pass (12 pushes)")!.rtp).toBe(1953 / 1980);
    expect(byBet.get("field (2 pays 2:1, 12 pays 3:1)")!.rtp).toBe(35 / 36);
    expect(byBet.get("place 6/8")!.rtp).toBe(65 / 66);
    for (const row of rows) if (row.reference !== undefined) expect(Math.abs(row.rtp - row.reference)).toBeLessThan(1e-5);
  });

  it("replays a multi-step round to the same result from its seeds", () => {
    const input = { serverSeed: "e".repeat(64), clientSeed: "craps", nonce: 21 };
    const rng = floatStream(input);
    const params = {
      bets: [
        { type: "pass", amount: 10 },
        { type: "place", number: 8, amount: 6 },
      ],
    };
    const steps = [startRound(engine, 16, params, rng)];
    const actions: object[] = [];
    for (let i = 0; i < 50 && !steps[steps.length - 1]!.done; i++) {
      const action = i === 0 ? { type: "bet", bets: [{ type: "field", amount: 2 }] } : { type: "roll" };
      actions.push(action);
      steps.push(actRound(engine, steps[steps.length - 1]!.state, action, rng));
    }
    const replay = replayRound(input, { game: "craps", amount: 16, params, actions });
    expect(replay.steps).toEqual(steps);
    expect(replay.totalStake).toBe(steps.reduce((s, x) => s + x.stake, 0));
    expect(replay.done).toBe(steps[steps.length - 1]!.done);
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("craps", (e) => {
  // The bets the page's examples use (pass, pass odds, place), settled on each roll in the order they
  // sit on the table, each flat part before its odds, each payout made whole by the example's rule from
  // the floats after the dice (section 4). Returns for 1, stake included, from the page's odds.
  const PASS_ODDS: Record<number, [number, number]> = { 4: [3, 1], 10: [3, 1], 5: [5, 2], 9: [5, 2], 6: [11, 5], 8: [11, 5] };
  const PLACE: Record<number, [number, number]> = { 4: [14, 5], 10: [14, 5], 5: [12, 5], 9: [12, 5], 6: [13, 6], 8: [13, 6] };
  type Bet = { type: string; number?: number; amount: number; odds: number };
  let table: Bet[] = [];
  let point: number | null = null;
  let payout = 0;
  const rolls: number[][] = [];
  const place = (bets: { type: string; number?: number; amount: number }[]) => {
    for (const b of bets) {
      if (b.type === "passOdds") table.find((t) => t.type === "pass")!.odds += b.amount;
      else if (b.type !== "pass" && b.type !== "place")
        throw new Error(`this verifier reads pass, pass odds and place bets, not ${b.type}`);
      else {
        const spot = table.find((t) => t.type === b.type && t.number === b.number);
        if (spot) spot.amount += b.amount;
        else table.push({ type: b.type, number: b.number, amount: b.amount, odds: 0 });
      }
    }
  };
  const roll = (s: Stream) => {
    const dice = [die(s), die(s)];
    rolls.push(dice);
    const total = dice[0]! + dice[1]!;
    const left: Bet[] = [];
    for (const bet of table) {
      if (bet.type === "pass" && point === null) {
        if (total === 7 || total === 11) payout += pay(e, s, bet.amount, 2, 1);
        else if (![2, 3, 12].includes(total)) left.push(bet);
      } else if (bet.type === "pass") {
        if (total === point) payout += pay(e, s, bet.amount, 2, 1) + pay(e, s, bet.odds, ...PASS_ODDS[point]!);
        else if (total !== 7) left.push(bet);
      } else if (total === bet.number) payout += pay(e, s, bet.amount, ...PLACE[bet.number]!);
      else if (total !== 7) left.push(bet);
    }
    table = left;
    if (point === null) point = [4, 5, 6, 8, 9, 10].includes(total) ? total : null;
    else if (total === point || total === 7) point = null;
  };
  const steps = run(e, [
    (s) => {
      place(e.params.bets);
      roll(s);
    },
    ...e.actions.map((a: any) => (s: Stream) => (a.type === "roll" ? roll(s) : place(a.bets))),
  ]);
  return { steps, outcome: { rolls, point }, payout };
});
