import { describe, expect, it } from "vitest";
import { rankOf } from "@casino/common/games/cards";
import { act, dealerTurn, defaultAction, seatToAct, type TableState } from "@casino/common/games/blackjack-table";
import { replayShoe } from "../../src/table/table-replay";
import { restartPlan, step, wakeAt, type MachineEffect } from "../../src/table/round-machine";
import { SETTINGS, TableDriver, seedWhere } from "./table-machine-driver";

/**
 * The blackjack table's round machine on its own: no database, no room, no timer. Time moves only when
 * the test moves it, and the store's and the ledger's answers are given in memory (TableDriver).
 */
const stand = { type: "stand" } as const;
/** Every seat has a turn: no dealer blackjack, no ace up, no natural. */
const noBlackjack = (s: TableState) => s.phase === "turns" && s.seats.every((x) => x.hands[0]!.result === undefined);
/** Seat 1 is dealt a pair it can split, and after the split each hand is still to play. */
const splitPlays = (s: TableState) => {
  if (!noBlackjack(s) || !pairAt(s, 0)) return false;
  const split = act(s, 1, { type: "split" }).state;
  return seatToAct(split) === 1 && seatToAct(act(split, 1, stand).state) === 1;
};
const pairAt = (s: TableState, seatIndex: number) => {
  const cards = s.seats[seatIndex]!.hands[0]!.cards;
  return rankOf(cards[0]!) === rankOf(cards[1]!) && rankOf(cards[0]!) !== 14;
};

/** A table with `players` seated (seat k+1 each), one shoe seeded to deal what `wanted` asks of its first round. */
function table(players: string[], bets: number[], wanted: (s: TableState) => boolean = noBlackjack) {
  const t = new TableDriver();
  const seats = Object.fromEntries(players.map((p, k) => [k + 1, p]));
  t.seeds.push(seedWhere(seats, Object.fromEntries(bets.map((b, k) => [k + 1, b])), wanted));
  players.forEach((p, k) => expect(t.sit(p, k + 1).refusal).toBeUndefined());
  return t;
}

/** Every seated player bets and presses Ready. */
function betAll(t: TableDriver, players: string[], bets: number[]) {
  players.forEach((p, k) => expect(t.bet(p, bets[k]!).refusal).toBeUndefined());
  for (const p of players) expect(t.ready(p).refusal).toBeUndefined();
}

describe("the betting window", () => {
  it("opens once a seat is taken, shows its deadline, and closes at it with the bets placed (a seat without a bet sits the round out)", () => {
    const t = table(["ann", "bob"], [50]);
    expect(t.snapshot.phase).toBe("betting");
    const opened = t.now;
    expect(t.snapshot.deadline).toBe(opened + SETTINGS.bettingMs);
    expect(t.snapshot.shoe).toMatchObject({ rounds: 0, seats: null });
    expect(t.bet("ann", 50).refusal).toBeUndefined();
    expect(t.seat(1)!.bet).toBe(50);
    // Ann is not Ready and Bob has no bet: the window stays open to its last millisecond.
    const mark = t.effects.length;
    t.advance(SETTINGS.bettingMs - 1);
    expect(t.snapshot.phase).toBe("betting");
    expect(t.since(mark, "deal")).toEqual([]);
    t.advance(1);
    expect(t.since(mark, "deal")).toHaveLength(1);
    expect(t.snapshot.view?.round).toBe(1);
    expect(t.seat(1)).toMatchObject({ inRound: true, bet: 50 });
    expect(t.seat(2)).toMatchObject({ inRound: false, bet: null });
    // Both seated players' client seeds shuffle the shoe.
    expect(t.snapshot.shoe!.seats).toEqual([
      { seat: 1, clientSeed: "client-ann" },
      { seat: 2, clientSeed: "client-bob" },
    ]);
    // A bet or Ready after the window closed is refused, nothing changes.
    expect(t.bet("bob", 10).refusal).toEqual({ code: "betting_closed", status: 409, message: "Bets are closed for this round" });
    expect(t.ready("bob").refusal?.code).toBe("betting_closed");
  });

  it("closes as soon as every seated player has bet and pressed Ready, before its deadline", () => {
    const t = table(["ann", "bob"], [10, 20]);
    const opened = t.now;
    expect(t.bet("ann", 10).refusal).toBeUndefined();
    expect(t.ready("ann").refusal).toBeUndefined();
    expect(t.bet("bob", 20).refusal).toBeUndefined();
    expect(t.snapshot.phase).toBe("betting");
    expect(t.ready("bob").refusal).toBeUndefined();
    expect(t.now).toBe(opened);
    expect(t.snapshot.view).toMatchObject({ round: 1 });
    expect(t.snapshot.phase).toBe("turns");
  });

  it("waits for a bet still being written before dealing, and deals it", () => {
    const t = table(["ann"], [30]);
    t.hold.add("placeBet");
    expect(t.bet("ann", 30).refusal).toBeUndefined();
    t.advance(SETTINGS.bettingMs);
    expect(t.machine.stage).toBe("closing");
    expect(t.since(0, "deal")).toEqual([]);
    t.release("placeBet");
    expect(t.since(0, "deal")).toHaveLength(1);
    expect(t.seat(1)).toMatchObject({ inRound: true, bet: 30 });
  });

  it("with no bet at all opens again for the same round; with nobody seated the table waits", () => {
    const t = table(["ann"], [10]);
    t.advance(SETTINGS.bettingMs);
    const rounds = t.since(0, "openRound") as Extract<MachineEffect, { type: "openRound" }>[];
    expect(rounds.map((r) => r.round)).toEqual([1, 1]);
    expect(t.snapshot.phase).toBe("betting");
    expect(t.snapshot.deadline).toBe(t.now + SETTINGS.bettingMs);
    expect(t.send({ type: "stand", playerId: "ann" }).seat).toBe(1);
    // The window closes at once with nobody seated, and no new one opens.
    expect(t.snapshot.phase).toBe("waiting");
    expect(t.snapshot.players).toEqual([]);
    expect(wakeAt(t.machine)).toBeNull();
  });

  it("refuses what a seat cannot do, each with its reason, and changes nothing", () => {
    const t = table(["ann", "bob"], [10]);
    expect(t.sit("carl", 1).refusal).toEqual({ code: "seat_taken", status: 409, message: "Seat 1 is taken" });
    expect(t.sit("ann", 5).refusal).toEqual({ code: "already_seated", status: 409, message: "You are already at seat 1" });
    expect(t.bet("carl", 10).refusal).toMatchObject({ code: "not_seated", message: "Take a seat to bet" });
    expect(t.ready("carl").refusal).toMatchObject({ code: "not_seated", message: "You have no seat at this table" });
    expect(t.send({ type: "stand", playerId: "carl" }).refusal?.code).toBe("not_seated");
    expect(t.act("ann", stand).refusal).toEqual({ code: "no_turn", status: 409, message: "No seat is to act now" });
    expect(t.act("carl", stand).refusal?.code).toBe("not_seated");
  });
});

describe("turns", () => {
  it("run seat by seat, each with its own timer; a seat that does not act in time is stood for and recorded", () => {
    const players = ["ann", "bob", "cid"];
    const t = table(players, [10, 20, 30]);
    betAll(t, players, [10, 20, 30]);
    expect(t.toAct).toBe(1);
    const turn1 = t.now;
    expect(t.snapshot.deadline).toBe(turn1 + SETTINGS.turnMs);
    expect(t.act("bob", stand).refusal).toEqual({ code: "not_your_turn", status: 409, message: "It is seat 1's turn" });
    // Ann acts after 4 s: Bob's timer starts then, for a full turn.
    t.advance(4_000);
    expect(t.act("ann", stand).refusal).toBeUndefined();
    expect(t.toAct).toBe(2);
    expect(t.snapshot.deadline).toBe(turn1 + 4_000 + SETTINGS.turnMs);
    t.advance(SETTINGS.turnMs - 1);
    expect(t.toAct).toBe(2);
    t.advance(1);
    // Stood for at the deadline: the stand is in the record, like any action; Cid's timer starts.
    expect(t.toAct).toBe(3);
    expect(t.records.get("shoe-1:1")).toEqual([
      { seat: 1, action: stand },
      { seat: 2, action: stand },
    ]);
    expect(t.snapshot.deadline).toBe(t.now + SETTINGS.turnMs);
    expect(t.act("cid", stand).refusal).toBeUndefined();
    // The dealer plays and every seat is settled; the result stays on the table for the settled pause.
    expect(t.snapshot.phase).toBe("settled");
    expect(t.settlements.map((s) => s.seat)).toEqual([1, 2, 3]);
    expect(t.snapshot.deadline).toBe(t.now + SETTINGS.settledMs);
    t.advance(SETTINGS.settledMs);
    expect(t.snapshot).toMatchObject({ phase: "betting", view: null });
    expect(t.machine.seats.map((s) => [s.bet, s.inRound, s.ready])).toEqual([
      [null, false, false],
      [null, false, false],
      [null, false, false],
    ]);
  });

  it("a split hand gets its own timer, and each hand of a seat that keeps not acting is stood for in turn", () => {
    const t = table(["ann"], [40], splitPlays);
    betAll(t, ["ann"], [40]);
    t.advance(2_000);
    expect(t.act("ann", { type: "split" }).refusal).toBeUndefined();
    expect(t.machine.engine!.seats[0]!.hands).toHaveLength(2);
    const split = t.now;
    expect(t.snapshot.deadline).toBe(split + SETTINGS.turnMs);
    t.advance(SETTINGS.turnMs);
    expect(t.snapshot.deadline).toBe(split + 2 * SETTINGS.turnMs);
    t.advance(SETTINGS.turnMs);
    expect(t.records.get("shoe-1:1")).toEqual([
      { seat: 1, action: { type: "split" } },
      { seat: 1, action: stand },
      { seat: 1, action: stand },
    ]);
    expect(t.snapshot.phase).toBe("settled");
    expect(t.settlements[0]!.settlement.staked).toBe(80);
  });

  it("an action being written holds the next one until it is answered; a refused write leaves the turn and its timer as they were", () => {
    const t = table(["ann", "bob"], [10, 10]);
    betAll(t, ["ann", "bob"], [10, 10]);
    const deadline = t.snapshot.deadline;
    t.hold.add("recordAct");
    expect(t.act("ann", { type: "hit" }).refusal).toBeUndefined();
    expect(t.act("ann", stand).busy).toBe(true);
    // The ledger refuses the write (say, the player's money ran out): nothing was applied.
    t.held.splice(0);
    t.send({ type: "actFailed" });
    expect(t.toAct).toBe(1);
    expect(t.snapshot.deadline).toBe(deadline);
    expect(t.machine.engine!.seats[0]!.hands[0]!.cards).toHaveLength(2);
    // A repeated request answered before changes nothing either.
    expect(t.act("ann", { type: "hit" }).refusal).toBeUndefined();
    t.held.splice(0);
    t.send({ type: "actRecorded", index: 0, replayed: true });
    expect(t.machine.actions).toEqual([]);
    t.hold.clear();
    expect(t.act("ann", stand).refusal).toBeUndefined();
    expect(t.toAct).toBe(2);
  });
});

describe("insurance", () => {
  it("is asked seat by seat with the turn timer; a seat that does not answer declines it, and no coin is staked for it", () => {
    const t = table(["ann", "bob"], [10, 20], (s) => s.phase === "insurance");
    betAll(t, ["ann", "bob"], [10, 20]);
    expect(t.snapshot.phase).toBe("insurance");
    expect(t.snapshot.view!.actions).toContain("insurance");
    expect(t.toAct).toBe(1);
    expect(t.act("ann", { type: "stand" }).refusal?.code).toBe("insurance_pending");
    expect(t.act("ann", { type: "insurance", take: true }).refusal).toBeUndefined();
    const taken = t.since(0, "recordAct") as Extract<MachineEffect, { type: "recordAct" }>[];
    expect(taken.map((e) => e.stake)).toEqual([5]);
    expect(t.toAct).toBe(2);
    t.advance(SETTINGS.turnMs);
    expect(t.records.get("shoe-1:1")).toEqual([
      { seat: 1, action: { type: "insurance", take: true } },
      { seat: 2, action: { type: "insurance", take: false } },
    ]);
    expect(t.machine.engine!.seats[1]!.staked).toBe(20);
  });
});

describe("a seat given up mid round", () => {
  it("is stood for at once when its turn comes, freed when the round ends; a seat taken meanwhile plays from the next round", () => {
    const t = table(["ann", "bob"], [10, 20]);
    betAll(t, ["ann", "bob"], [10, 20]);
    expect(t.send({ type: "stand", playerId: "bob" }).seat).toBe(2);
    expect(t.seat(2)).toMatchObject({ leaving: true, inRound: true });
    expect(t.bet("bob", 5).refusal?.code).toBe("not_seated");
    // A newcomer takes seat 3 during the round: watches it, cannot bet until the next window.
    expect(t.sit("cid", 3).refusal).toBeUndefined();
    expect(t.seat(3)).toMatchObject({ inRound: false, bet: null });
    expect(t.bet("cid", 10).refusal?.code).toBe("betting_closed");
    t.advance(1_000);
    expect(t.act("ann", stand).refusal).toBeUndefined();
    // Bob's turn: no timer, his stand is recorded at once.
    expect(t.records.get("shoe-1:1")!.at(-1)).toEqual({ seat: 2, action: stand });
    expect(t.snapshot.phase).toBe("settled");
    expect(t.settlements.map((s) => s.seat)).toEqual([1, 2]);
    expect(t.seat(2)).toBeDefined();
    t.advance(SETTINGS.settledMs);
    expect(t.seat(2)).toBeUndefined();
    expect(t.snapshot.phase).toBe("betting");
    expect(t.bet("cid", 10).refusal).toBeUndefined();
  });
});

describe("a dropped player's grace", () => {
  it("stands for the player at once, keeps the seat; back within the grace, they play on", () => {
    const t = table(["ann", "bob"], [10, 20]);
    betAll(t, ["ann", "bob"], [10, 20]);
    t.send({ type: "drop", playerId: "ann", sessionId: "session-ann" });
    expect(t.records.get("shoe-1:1")).toEqual([{ seat: 1, action: stand }]);
    expect(t.seat(1)).toMatchObject({ connected: false, leaving: false, inRound: true });
    expect(t.toAct).toBe(2);
    expect(t.effects.at(-1)).toEqual({ type: "wake", at: t.now + SETTINGS.turnMs });
    t.advance(SETTINGS.reconnectSeconds * 1000 - 1);
    t.send({ type: "reconnect", playerId: "ann", sessionId: "session-ann" });
    expect(t.seat(1)).toMatchObject({ connected: true });
    t.advance(10 * SETTINGS.reconnectSeconds * 1000);
    expect(t.since(0, "endGrace")).toEqual([]);
    expect(t.snapshot.phase).toBe("betting");
    expect(t.bet("ann", 10).refusal).toBeUndefined();
  });

  it("gives the seat up when the grace runs out, and asks the room to end the wait for the connection", () => {
    const t = table(["ann"], [10]);
    t.send({ type: "drop", playerId: "ann", sessionId: "session-ann" });
    const dropped = t.now;
    t.advance(SETTINGS.reconnectSeconds * 1000 - 1);
    expect(t.seat(1)).toMatchObject({ connected: false });
    t.advance(1);
    expect(t.since(0, "endGrace")).toEqual([{ type: "endGrace", sessionId: "session-ann" }]);
    expect(t.now).toBe(dropped + SETTINGS.reconnectSeconds * 1000);
    expect(t.seat(1)).toBeUndefined();
    // Colyseus then says the connection left: nothing more happens.
    const mark = t.effects.length;
    t.send({ type: "leave", playerId: "ann", sessionId: "session-ann" });
    expect(t.since(mark).filter((e) => e.type !== "wake")).toEqual([]);
  });

  it("a player back on a new connection takes the seat over; the old connection's grace then frees nothing", () => {
    const t = table(["ann"], [10]);
    t.send({ type: "drop", playerId: "ann", sessionId: "session-ann" });
    t.send({ type: "join", playerId: "ann", sessionId: "session-ann-2" });
    expect(t.seat(1)).toMatchObject({ connected: true, sessionId: "session-ann-2" });
    t.advance(SETTINGS.reconnectSeconds * 1000);
    expect(t.since(0, "endGrace")).toHaveLength(1);
    expect(t.seat(1)).toMatchObject({ connected: true });
  });
});

describe("a whole shoe", () => {
  it("is dealt to its cut card; after the settled pause its seed is revealed and a new shoe is committed before its first round", () => {
    const t = new TableDriver();
    expect(t.sit("ann", 4).refusal).toBeUndefined();
    const first = t.machine.shoe!;
    let rounds = 0;
    while (t.finished.length === 0) {
      expect(t.snapshot.phase).toBe("betting");
      betAll(t, ["ann"], [7]);
      rounds += 1;
      // Ann never acts: every decision is stood for (or insurance declined) when her timer runs out.
      while (t.machine.stage === "playing") t.advance(SETTINGS.turnMs);
      expect(t.snapshot.phase).toBe("settled");
      t.advance(SETTINGS.settledMs);
      expect(rounds).toBeLessThan(200);
    }
    expect(rounds).toBeGreaterThan(10);
    expect(t.finished).toEqual([first.id]);
    expect(t.snapshot.previousShoe).toEqual({ id: first.id, serverSeed: first.serverSeed, serverSeedHash: first.serverSeedHash });
    expect(t.snapshot.shoe).toMatchObject({ id: "shoe-2", rounds: 0, seats: null });
    expect(t.snapshot.phase).toBe("betting");
    expect(t.effects.filter((e) => e.type === "holdLease").length).toBe(2);
    expect(t.settlements).toHaveLength(rounds);
  });
});

describe("a table that stops", () => {
  it("mid round deals no more: its timers are dropped and late answers change nothing (the store's restart rule settles the round)", () => {
    const t = table(["ann", "bob"], [10, 20]);
    betAll(t, ["ann", "bob"], [10, 20]);
    t.hold.add("recordAct");
    expect(t.act("ann", stand).refusal).toBeUndefined();
    t.send({ type: "stop" });
    expect(t.machine.stage).toBe("stopped");
    expect(wakeAt(t.machine)).toBeNull();
    // An action sent now is refused rather than left waiting for the one being written.
    expect(t.act("bob", stand).refusal?.code).toBe("no_turn");
    const mark = t.effects.length;
    t.release("recordAct");
    expect(t.machine.recording).toBe(false);
    expect(t.machine.actions).toEqual([]);
    t.advance(10 * SETTINGS.turnMs);
    expect(t.since(mark).filter((e) => e.type !== "wake")).toEqual([]);
    expect(t.snapshot.deadline).toBeNull();
    expect(t.settlements).toEqual([]);
  });

  it("a failure (or a lost lease) abandons the shoe to the restart rule and starts a new shoe after a pause", () => {
    const t = table(["ann"], [10]);
    betAll(t, ["ann"], [10]);
    t.send({ type: "leaseLost", shoeId: "another-shoe" });
    expect(t.machine.shoeLost).toBe(false);
    t.send({ type: "leaseLost", shoeId: "shoe-1" });
    t.advance(1_000);
    expect(t.since(0, "abandon")).toEqual([
      { type: "abandon", shoeId: "shoe-1", reason: "the table's shoe was taken over by another process" },
    ]);
    expect(t.machine.shoe?.id).toBe("shoe-2");
    expect(t.seat(1)).toMatchObject({ bet: null, inRound: false });
  });
});

describe("opening a shoe", () => {
  it("waits half a lease while another process deals the table, and settles a shoe left by a stopped process first", () => {
    const t = new TableDriver();
    t.hold.add("openShoe");
    expect(t.sit("ann", 1).refusal).toBeUndefined();
    t.held.splice(0);
    t.send({ type: "shoeBusy" });
    expect(t.snapshot).toMatchObject({ phase: "waiting", shoe: null });
    const mark = t.effects.length;
    t.advance(SETTINGS.leaseMs / 2 - 1);
    expect(t.since(mark, "openShoe")).toEqual([]);
    t.advance(1);
    expect(t.since(mark, "openShoe")).toHaveLength(1);
    t.held.splice(0);
    t.send({ type: "shoeStale", shoeId: "left-open" });
    expect(t.since(mark, "recoverStale")).toEqual([{ type: "recoverStale", shoeId: "left-open" }]);
    const previousShoe = { id: "left-open", serverSeed: "seed", serverSeedHash: "hash" };
    t.hold.clear();
    t.send({ type: "staleRecovered", previousShoe });
    expect(t.since(mark, "openShoe")).toHaveLength(2);
    expect(t.snapshot).toMatchObject({ phase: "betting", previousShoe, shoe: { id: "shoe-1" } });
  });
});

describe("the restart rule", () => {
  const shoe = (serverSeed: string) => ({
    id: "s",
    serverSeed,
    serverSeedHash: "",
    seats: [
      { seat: 1, clientSeed: "client-ann" },
      { seat: 2, clientSeed: "client-bob" },
    ],
    rounding: 2 as const,
  });

  it("voids a round still taking bets: every active bet refunded", () => {
    const plan = restartPlan(shoe("x"), [
      {
        id: "r1",
        round: 1,
        phase: "betting",
        actions: [],
        bets: [
          { betId: "a", seat: 1, amount: 10, status: "active" },
          { betId: "b", seat: 2, amount: 10, status: "refunded" },
        ],
      },
    ]);
    expect(plan).toEqual({ kind: "void", roundId: "r1", refund: ["a"] });
    expect(restartPlan(shoe("x"), [{ id: "r0", round: 1, phase: "settled", actions: [], bets: [] }])).toEqual({ kind: "none" });
  });

  it("plays a dealt round out as the machine's timers would: the same stands recorded, the same settlements", () => {
    // The machine plays a round in which seat 1 hits and seat 2 never acts (stood for by its timer).
    const t = table(["ann", "bob"], [10, 20]);
    const seed = t.machine.shoe!.serverSeed;
    betAll(t, ["ann", "bob"], [10, 20]);
    expect(t.act("ann", { type: "hit" }).refusal).toBeUndefined();
    const played = [...t.records.get("shoe-1:1")!];
    while (t.machine.stage === "playing") t.advance(SETTINGS.turnMs);
    const record = t.records.get("shoe-1:1")!;
    // The restart rule finds the round as the process left it after seat 1's hit.
    const open = {
      id: "shoe-1:1",
      round: 1,
      phase: "playing" as const,
      actions: played,
      bets: t.bets.map((b) => ({ betId: b.betId, seat: b.seat, amount: b.amount, status: "active" as const })),
    };
    const plan = restartPlan(shoe(seed), [open]);
    if (plan.kind !== "settle") throw new Error(`expected a settlement, got ${plan.kind}`);
    expect(plan.recorded).toBe(played.length);
    expect([...played, ...plan.added]).toEqual(record);
    expect(plan.settle).toEqual(t.settlements.map((s) => ({ betId: s.betId, settlement: s.settlement })));
    // And it is the engine's own default play, replayed from the record.
    let state = replayShoe(shoe(seed), [open])!;
    for (let d = defaultAction(state); d; d = defaultAction(state)) state = act(state, d.seat, d.action).state;
    expect(seatToAct(dealerTurn(state))).toBeNull();
  });
});

describe("the wake-up", () => {
  it("is asked for again by a tick that comes before its moment (a timer may fire a millisecond early): the table never stalls", () => {
    const t = table(["ann"], [50]);
    const deadline = t.snapshot.deadline!;
    expect(wakeAt(t.machine)).toBe(deadline);
    const early = step(t.machine, { type: "tick" }, deadline - 1, SETTINGS);
    expect(early.machine.stage).toBe("betting");
    expect(early.effects).toContainEqual({ type: "wake", at: deadline });
  });
});
