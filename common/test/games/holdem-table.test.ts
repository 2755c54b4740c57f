import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FULL_DECK } from "../../src/games/cards";
import { HOLDEM_DEFAULTS } from "../../src/games/holdem/config";
import { legalActions, startHand, step, wakeAt, type HoldemAction, type HoldemHand } from "../../src/games/holdem/hand-machine";
import {
  afterHand,
  comeBack,
  dropped,
  expireGraces,
  handStart,
  nextButton,
  nextGraceEnd,
  planHand,
  reconnected,
  sitDown,
  sitOut,
  type TableSeat,
} from "../../src/games/holdem/table";

const CONFIG = HOLDEM_DEFAULTS;

/** Seats by number: "p" playing, "w" waiting, "W" waiting and posting now, "o" sitting out. */
function table(layout: Record<number, "p" | "w" | "W" | "o">): TableSeat[] {
  return Object.entries(layout).map(([n, kind]) => ({
    ...sitDown(CONFIG, Number(n), `p${n}`, 200),
    status: kind === "p" ? "playing" : kind === "o" ? "sittingOut" : "waiting",
    postNow: kind === "W",
  }));
}

describe("Hold'em table: the button and who is dealt in", () => {
  it("deals everyone in at a new table, the button on the first seat", () => {
    expect(planHand(table({ 2: "w", 5: "w", 7: "w" }), null)).toEqual({
      button: 2,
      smallBlindSeat: 5,
      bigBlindSeat: 7,
      dealt: [2, 5, 7].map((seat) => ({ seat, postsBigBlind: false })),
    });
  });

  it("moves the button one playing seat clockwise each hand, wrapping round", () => {
    const seats = table({ 1: "p", 3: "p", 5: "p" });
    expect(planHand(seats, 1)!.button).toBe(3);
    expect(planHand(seats, 5)!.button).toBe(1);
    // The last button's seat was freed: the next seat clockwise takes it.
    expect(planHand(seats, 4)!.button).toBe(5);
    expect(nextButton([7, 2, 4], 7)).toBe(2);
  });

  it("heads-up, the button posts the small blind", () => {
    expect(planHand(table({ 2: "p", 6: "p" }), 2)).toMatchObject({ button: 6, smallBlindSeat: 6, bigBlindSeat: 2 });
  });

  it("a newcomer waits until the big blind reaches the seat, then is dealt in posting it", () => {
    const seats = table({ 1: "p", 3: "p", 4: "w", 5: "p" });
    // Button 3, small blind 5, big blind 1: seat 4 is passed over.
    const first = planHand(seats, 1)!;
    expect(first).toMatchObject({ button: 3, smallBlindSeat: 5, bigBlindSeat: 1 });
    expect(first.dealt.map((d) => d.seat)).toEqual([1, 3, 5]);
    // Button 1, small blind 3: the big blind is seat 4's.
    const second = planHand(seats, 5)!;
    expect(second).toMatchObject({ button: 1, smallBlindSeat: 3, bigBlindSeat: 4 });
    expect(second.dealt).toEqual([1, 3, 4, 5].map((seat) => ({ seat, postsBigBlind: false })));
  });

  it("a newcomer who chooses to post is dealt in at once with a big blind, unless between the button and the small blind", () => {
    const seats = table({ 1: "p", 2: "W", 3: "p", 5: "p", 6: "W", 7: "p" });
    const plan = planHand(seats, 7)!;
    expect(plan).toMatchObject({ button: 1, smallBlindSeat: 3, bigBlindSeat: 5 });
    expect(plan.dealt).toEqual([
      { seat: 1, postsBigBlind: false },
      { seat: 3, postsBigBlind: false },
      { seat: 5, postsBigBlind: false },
      { seat: 6, postsBigBlind: true },
      { seat: 7, postsBigBlind: false },
    ]);
  });

  it("a posted big blind is live: the poster puts it in and may check when nobody raises", () => {
    const seats = table({ 1: "p", 3: "p", 5: "p", 6: "W", 7: "p" });
    const plan = planHand(seats, 7)!;
    let h = startHand(handStart(plan, seats, CONFIG, 1, FULL_DECK), 0).hand;
    expect(h.seats.find((s) => s.seat === 6)!.committed).toBe(CONFIG.bigBlind);
    expect(h.toAct).toBe(6);
    expect(legalActions(h, 6)).toMatchObject({ check: true, call: null });
    expect(h.seats.reduce((sum, s) => sum + s.committed, 0)).toBe(CONFIG.smallBlind + 2 * CONFIG.bigBlind);
    h = startHand(handStart(planHand(table({ 1: "p", 3: "p" }), 1)!, table({ 1: "p", 3: "p" }), CONFIG, 2, FULL_DECK), 0).hand;
    expect(h.smallBlindSeat).toBe(h.button);
  });

  it("deals no hand to fewer than two players, skipping those sitting out or without chips", () => {
    expect(planHand(table({ 1: "p", 3: "o" }), 1)).toBeNull();
    const broke = table({ 1: "p", 3: "p", 5: "p" }).map((s) => (s.seat === 3 ? { ...s, stack: 0 } : s));
    expect(planHand(broke, 1)!.dealt.map((d) => d.seat)).toEqual([1, 5]);
  });
});

describe("Hold'em table: sitting out, coming back and dropping", () => {
  it("a player who sits out is not dealt in, and comes back waiting for the big blind (or posting it)", () => {
    let seats = table({ 1: "p", 3: "p", 5: "p" });
    seats = seats.map((s) => (s.seat === 3 ? sitOut(s) : s));
    expect(planHand(seats, 1)!.dealt.map((d) => d.seat)).toEqual([1, 5]);
    const back = comeBack(seats.find((s) => s.seat === 3)!);
    expect(back).toMatchObject({ status: "waiting", postNow: false });
    expect(
      comeBack(
        seats.find((s) => s.seat === 3)!,
        true,
      ),
    ).toMatchObject({ status: "waiting", postNow: true });
    // Coming back does not change a seat that was not sitting out.
    expect(comeBack(seats[0]!)).toBe(seats[0]);
  });

  it("keeps a dropped player's seat for the grace period, then sits the player out", () => {
    const seats = table({ 1: "p", 3: "p" });
    const gone = seats.map((s) => (s.seat === 3 ? dropped(s, 1_000, CONFIG) : s));
    expect(nextGraceEnd(gone)).toBe(1_000 + CONFIG.graceMs);
    // Within the grace the player is still dealt in (and the hand checks or folds for them).
    expect(planHand(gone, 1)!.dealt.map((d) => d.seat)).toEqual([1, 3]);
    expect(expireGraces(gone, 1_000 + CONFIG.graceMs - 1).expired).toEqual([]);
    const later = expireGraces(gone, 1_000 + CONFIG.graceMs);
    expect(later.expired).toEqual([3]);
    expect(later.seats.find((s) => s.seat === 3)).toMatchObject({ status: "sittingOut", graceUntil: null });
    expect(reconnected(gone[1]!)).toMatchObject({ connected: true, graceUntil: null });
  });

  it("refuses a buy-in outside 40 to 200 big blinds and a seat beyond the table", () => {
    expect(() => sitDown(CONFIG, 1, "p", 79)).toThrow();
    expect(() => sitDown(CONFIG, 1, "p", 401)).toThrow();
    expect(() => sitDown(CONFIG, 10, "p", 100)).toThrow();
    expect(sitDown(CONFIG, 1, "p", 80)).toMatchObject({ stack: 80, status: "waiting", timeBank: CONFIG.timeBankMs });
  });
});

describe("Hold'em table: after a hand", () => {
  it("takes the hand's stacks, makes dealt newcomers playing, sits out a player left with nothing and refills time banks", () => {
    const seats = table({ 1: "p", 2: "w", 3: "p" }).map((s) => (s.seat === 1 ? { ...s, timeBank: 1_000 } : s));
    const plan = planHand(seats, 1)!;
    // Button 3, small blind 1, big blind 2: the newcomer's big blind.
    expect(plan).toMatchObject({ button: 3, smallBlindSeat: 1, bigBlindSeat: 2 });
    const start = handStart(plan, seats, CONFIG, 1, FULL_DECK);
    const h = startHand({ ...start, seats: start.seats.map((s) => (s.seat === 3 ? { ...s, stack: 5 } : s)) }, 0).hand;
    const hand = [
      { seat: 3, action: { type: "allIn" } as const },
      { seat: 1, action: { type: "fold" } as const },
      { seat: 2, action: { type: "fold" } as const },
    ].reduce((acc, a) => stepOk(acc, a.seat, a.action), h);
    const next = afterHand(seats, hand);
    expect(next.find((s) => s.seat === 2)).toMatchObject({ status: "playing", stack: 200 - CONFIG.bigBlind });
    expect(next.find((s) => s.seat === 3)!.stack).toBe(5 + CONFIG.smallBlind + CONFIG.bigBlind);
    expect(next.find((s) => s.seat === 1)!.timeBank).toBe(1_000 + CONFIG.timeBankRefillMs);
    expect(next.find((s) => s.seat === 2)!.timeBank).toBe(CONFIG.timeBankMs);
    const busted = afterHand(seats, {
      ...hand,
      result: { ...hand.result!, stacks: hand.result!.stacks.map((s) => (s.seat === 1 ? { ...s, stack: 0 } : s)) },
    });
    expect(busted.find((s) => s.seat === 1)!.status).toBe("sittingOut");
  });
});

function stepOk(h: HoldemHand, seat: number, action: HoldemAction): HoldemHand {
  const next = step(h, { type: "act", seat, action }, 0);
  expect(next.refusal).toBeUndefined();
  return next.hand;
}

describe("Hold'em table: many hands in a row, driven as a room would drive it", () => {
  it("moves the button every hand, conserves the chips across hands and finishes every hand on the clock alone", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 80, max: 400 }), { minLength: 2, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 300, maxLength: 300 }),
        fc.infiniteStream(fc.shuffledSubarray(FULL_DECK as number[], { minLength: 52, maxLength: 52 })),
        (buyIns, choices, decks) => {
          let seats = buyIns.map((buyIn, i) => sitDown(CONFIG, [1, 3, 4, 6, 8, 9][i]!, `p${i}`, buyIn));
          const total = buyIns.reduce((a, b) => a + b, 0);
          let button: number | null = null;
          let now = 0;
          let c = 0;
          const deckIter = decks[Symbol.iterator]();
          for (let handNumber = 1; handNumber <= 8; handNumber++) {
            const plan = planHand(seats, button);
            if (!plan) break;
            if (button !== null) {
              const playing = seats.filter((s) => s.status === "playing" && s.stack > 0).map((s) => s.seat);
              // The first playing seat clockwise after the last button (the seats are listed in order).
              if (playing.length >= 2) expect(plan.button).toBe(playing.find((n) => n > button!) ?? playing[0]);
            }
            button = plan.button;
            let step_ = startHand(handStart(plan, seats, CONFIG, handNumber, deckIter.next().value as number[]), now);
            let wake = step_.effects.findLast((e) => e.type === "wake");
            let h = step_.hand;
            while (h.phase !== "complete") {
              const [choice, idle] = choices[c++ % choices.length]!;
              if (idle) {
                // The room's timer fires at the wake-up it was given: the table acts for the idle player.
                expect(wake?.type === "wake" && wake.at).toBe(wakeAt(h));
                now = wakeAt(h)!;
                step_ = step(h, { type: "tick" }, now);
              } else {
                const legal = legalActions(h, h.toAct!)!;
                const options: HoldemAction[] = [{ type: "fold" }, legal.check ? { type: "check" } : { type: "call" }];
                if (legal.raise || legal.bet) options.push({ type: "allIn" });
                now += 500;
                step_ = step(h, { type: "act", seat: h.toAct!, action: options[choice % options.length]! }, now);
              }
              expect(step_.refusal).toBeUndefined();
              wake = step_.effects.findLast((e) => e.type === "wake") ?? wake;
              h = step_.hand;
            }
            seats = afterHand(seats, h);
            expect(seats.reduce((sum, s) => sum + s.stack, 0)).toBe(total);
            expect(seats.every((s) => s.stack >= 0 && s.timeBank <= CONFIG.timeBankMs)).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
