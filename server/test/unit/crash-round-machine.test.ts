import { describe, expect, it } from "vitest";
import { CRASH_CHAIN_SALT, chainGameHash, crashMultiplierAt, crashPointHundredths, crashReachedAtMs, sha256Hex } from "@casino/common";
import { CRASH_RETRY_MS, autoCashOutRequestId, crashRestartPlan, crashStep, type CrashEffect } from "../../src/crash/crash-machine";
import { MachineDriver, TIMING, kinds, ofKind, roundOf } from "./crash-machine-driver";

/** A steep curve (2× after 116 ms, as the room's server tests use) where the tests need many rounds. */
const STEEP = { ...TIMING, bettingMs: 250, bustedMs: 100, tickMs: 20, curveRate: 0.006 };

const reachedAt = (hundredths: number, rate = TIMING.curveRate) => crashReachedAtMs(hundredths, rate);

describe("the phases of a round", () => {
  it("loads the history, waits for a player, then betting, running, the bust and the pause, each at its time", () => {
    const d = new MachineDriver();
    expect(kinds(d.send({ type: "start" }))).toEqual(["loadHistory"]);
    expect(d.state.view.phase).toBe("waiting");
    // Nobody here: no round opens, and Colyseus may close the room.
    expect(d.send({ type: "historyLoaded" })).toEqual([{ kind: "autoDispose", on: true }]);
    expect(d.state.wakeAt).toBeNull();
    expect(kinds(d.send({ type: "players", count: 1 }))).toEqual(["openRound", "autoDispose"]);
    expect(d.state.autoDispose).toBe(false);

    const round = roundOf(250);
    const opened = d.send({ type: "opened", round });
    expect(opened).toEqual([
      { kind: "lease", roundId: round.roundId },
      { kind: "wake", at: d.now + TIMING.bettingMs },
    ]);
    expect(d.state.view).toMatchObject({ phase: "betting", roundId: round.roundId, bettingEndsAt: d.now + TIMING.bettingMs, gameHash: "" });
    expect(d.state.view.crashPoint).toBe(0);

    // Nothing happens before the deadline; at it, betting closes and the run is asked for.
    expect(d.advance(TIMING.bettingMs - 1)).toEqual([]);
    const closed = d.advance(1);
    expect(closed).toEqual([
      { kind: "startRun", roundId: round.roundId },
      { kind: "wake", at: null },
    ]);
    // Until the store has moved the round, the room still shows betting.
    expect(d.state.view.phase).toBe("betting");
    const started = d.now;
    d.send({ type: "runStarted", roundId: round.roundId, ok: true });
    expect(d.state.view).toMatchObject({ phase: "running", runStartedAt: started, multiplier: 100, elapsedMs: 0 });
    expect(d.state.wakeAt).toBe(started + TIMING.tickMs);

    // Each tick shows the curve at its moment; the secret stays secret.
    d.advance(1_000);
    expect(d.state.view).toMatchObject({
      elapsedMs: 1_000,
      multiplier: crashMultiplierAt(1_000, TIMING.curveRate),
      crashPoint: 0,
      gameHash: "",
    });

    // The bust at the first millisecond the curve reaches the crash point, not at a tick.
    const bustAt = started + reachedAt(250);
    expect(bustAt % TIMING.tickMs).not.toBe(started % TIMING.tickMs);
    expect(d.advanceTo(bustAt - 1)).not.toContainEqual(expect.objectContaining({ kind: "bust" }));
    expect(d.advanceTo(bustAt)).toContainEqual({ kind: "bust", roundId: round.roundId });
    expect(d.state.view.phase).toBe("running");
    const ended = d.send({ type: "bustDone", roundId: round.roundId, ok: true });
    expect(d.state.view).toMatchObject({ phase: "busted", multiplier: 250, crashPoint: 250, gameHash: round.gameHash });
    expect(ended).toEqual([
      { kind: "revealed", round, bets: [] },
      { kind: "lease", roundId: null },
      { kind: "wake", at: d.now + TIMING.bustedMs },
    ]);
    // The pause, then the next round.
    expect(d.advance(TIMING.bustedMs - 1)).toEqual([]);
    expect(kinds(d.advance(1))).toEqual(["openRound", "wake"]);
  });

  it("is pure: a step leaves the state it was given as it was, and the same step gives the same answer", () => {
    const d = MachineDriver.betting(roundOf(400));
    d.bet("ann", 100, 2);
    d.run();
    d.advance(3_000);
    const before = structuredClone(d.state);
    const event = { type: "cashOutRequested", playerId: "ann", requestId: "c1" } as const;
    const first = crashStep(d.state, event, d.now + 2_000);
    expect(d.state).toEqual(before);
    expect(crashStep(d.state, event, d.now + 2_000)).toEqual(first);
  });

  it("a wake-up that comes a millisecond early changes nothing and asks for no new one: the room sets its timer again", () => {
    const d = MachineDriver.betting(roundOf(400));
    const end = d.state.bettingEndsAt;
    d.now = end - 1;
    expect(d.send({ type: "time" })).toEqual([]);
    expect(d.state).toMatchObject({ step: "betting", wakeAt: end });
    d.now = end;
    expect(kinds(d.send({ type: "time" }))).toEqual(["startRun", "wake"]);
  });

  it("a round busting at 1.00× busts as its run starts", () => {
    const d = MachineDriver.betting(roundOf(100));
    const effects = d.run();
    expect(ofKind(effects, "bust")).toHaveLength(1);
    expect(d.state.step).toBe("settling");
  });

  it("waits half a lease while another process runs the scope's round; settles a stale round first, then opens at once", () => {
    const d = MachineDriver.opening();
    d.send({ type: "busy" });
    expect(d.state.view.phase).toBe("waiting");
    expect(d.advance(Math.ceil(TIMING.leaseMs / 2) - 1)).toEqual([]);
    expect(kinds(d.advance(1))).toContain("openRound");
    expect(d.send({ type: "stale", roundId: "old" })).toEqual([{ kind: "recoverStale", roundId: "old" }]);
    expect(kinds(d.send({ type: "staleRecovered" }))).toEqual(["openRound"]);
  });

  it("after a failed step logs it, drops the round and tries again after a second", () => {
    const d = MachineDriver.betting(roundOf(300));
    d.run();
    const failed = d.send({ type: "failed", error: new Error("database down") });
    expect(kinds(failed)).toEqual(["roundFailed", "lease", "wake"]);
    expect(d.state.round).toBeNull();
    expect(d.advance(CRASH_RETRY_MS - 1)).toEqual([]);
    expect(kinds(d.advance(1))).toContain("openRound");
  });

  it("a run the store refuses (another process took the round) is not played; the next round follows the pause", () => {
    const d = MachineDriver.betting(roundOf(300));
    d.advanceTo(d.state.bettingEndsAt);
    d.send({ type: "runStarted", roundId: d.state.round!.roundId, ok: false });
    expect(d.state.round).toBeNull();
    expect(kinds(d.advance(TIMING.bustedMs))).toContain("openRound");
  });

  it("a bust another process already settled shows the bets as the database has them", () => {
    const d = MachineDriver.betting(roundOf(300));
    d.bet("ann", 10);
    d.run();
    const roundId = d.state.round!.roundId;
    d.advance(reachedAt(300));
    expect(d.send({ type: "bustDone", roundId, ok: false })).toEqual([{ kind: "reload", roundId }]);
    d.send({ type: "reloaded", roundId, bets: [{ playerId: "ann", status: "refunded", cashedOutAt: null, payout: 10 }] });
    expect(d.state.bets[0]).toMatchObject({ status: "refunded", payout: 10, cashedOutAt: 0 });
    expect(d.state.round).toBeNull();
  });

  it("opens no round while nobody is in the room, and the next as soon as someone joins", () => {
    const d = MachineDriver.betting(roundOf(120));
    d.send({ type: "players", count: 0 });
    // The round in play goes on to its end.
    d.run();
    d.advance(reachedAt(120));
    d.send({ type: "bustDone", roundId: d.state.round!.roundId, ok: true });
    expect(ofKind(d.advance(TIMING.bustedMs), "autoDispose")).toEqual([{ kind: "autoDispose", on: true }]);
    expect(d.state.wakeAt).toBeNull();
    expect(kinds(d.send({ type: "players", count: 2 }))).toEqual(["openRound", "autoDispose"]);
  });
});

describe("bets", () => {
  it("are taken in the betting phase only, each sent to the ledger and shown once accepted", () => {
    const d = MachineDriver.opening();
    const early = d.send({ type: "betRequested", playerId: "ann", username: "Ann", requestId: "b0", amount: 5, autoCashOut: null });
    expect(early).toEqual([{ kind: "refuse", requestId: "b0", code: "betting_closed", message: "Bets are closed for this round" }]);
    const round = roundOf(400);
    d.send({ type: "opened", round });
    const asked = d.send({ type: "betRequested", playerId: "ann", username: "Ann", requestId: "b1", amount: 5, autoCashOut: 1.5 });
    expect(asked).toEqual([{ kind: "placeBet", playerId: "ann", requestId: "b1", roundId: round.roundId, amount: 5, autoCashOut: 150 }]);
    expect(d.state.bets).toEqual([]);
    const placed = d.send({ type: "betPlaced", roundId: round.roundId, requestId: "b1", answer: { roundId: round.roundId, balance: 995 } });
    expect(placed).toEqual([{ kind: "betAccepted", playerId: "ann", amount: 5, balance: 995 }]);
    expect(d.state.bets).toMatchObject([{ playerId: "ann", username: "Ann", amount: 5, autoCashOut: 150, status: "active" }]);

    // A request id of an earlier round answers that round's bet: nothing is added to this one.
    d.send({ type: "betRequested", playerId: "bob", username: "Bob", requestId: "old", amount: 5, autoCashOut: null });
    expect(d.send({ type: "betPlaced", roundId: round.roundId, requestId: "old", answer: { roundId: "earlier", balance: 990 } })).toEqual(
      [],
    );
    expect(d.state.bets.map((b) => b.playerId)).toEqual(["ann"]);

    d.advanceTo(d.state.bettingEndsAt);
    const late = d.send({ type: "betRequested", playerId: "cid", username: "Cid", requestId: "b2", amount: 5, autoCashOut: null });
    expect(ofKind(late, "refuse")).toMatchObject([{ code: "betting_closed" }]);
  });

  it("a bet at the deadline's own millisecond is taken; one a late timer has not closed yet is refused", () => {
    const d = MachineDriver.betting(roundOf(400));
    d.now = d.state.bettingEndsAt;
    expect(
      kinds(d.send({ type: "betRequested", playerId: "ann", username: "Ann", requestId: "b1", amount: 5, autoCashOut: null })),
    ).toEqual(["placeBet"]);
    d.now += 1;
    const late = d.send({ type: "betRequested", playerId: "bob", username: "Bob", requestId: "b2", amount: 5, autoCashOut: null });
    expect(ofKind(late, "refuse")).toMatchObject([{ code: "betting_closed" }]);
  });

  it("bets in flight when betting closes finish before the run starts", () => {
    const d = MachineDriver.betting(roundOf(400));
    const roundId = d.state.round!.roundId;
    d.send({ type: "betRequested", playerId: "ann", username: "Ann", requestId: "b1", amount: 5, autoCashOut: null });
    d.send({ type: "betRequested", playerId: "bob", username: "Bob", requestId: "b2", amount: 7, autoCashOut: null });
    expect(ofKind(d.advanceTo(d.state.bettingEndsAt), "startRun")).toEqual([]);
    expect(d.state.step).toBe("closing");
    // A cash-out now: the round has not started.
    expect(ofKind(d.send({ type: "cashOutRequested", playerId: "ann", requestId: "c1" }), "refuse")).toMatchObject([
      { code: "not_running", message: "The round has not started yet" },
    ]);
    expect(ofKind(d.send({ type: "betFailed", roundId, requestId: "b2" }), "startRun")).toEqual([]);
    const last = d.send({ type: "betPlaced", roundId, requestId: "b1", answer: { roundId, balance: 995 } });
    expect(kinds(last)).toEqual(["betAccepted", "startRun"]);
    expect(d.state.bets.map((b) => b.playerId)).toEqual(["ann"]);
  });
});

describe("cash-outs", () => {
  /** A running round with one bet of 100 by ann (automatic target as given). */
  function running(crashPoint: number, autoCashOut: number | null = null, timing = TIMING) {
    const d = MachineDriver.betting(roundOf(crashPoint), 1, timing);
    d.bet("ann", 100, autoCashOut);
    d.run();
    return d;
  }
  const cashOut = (d: MachineDriver, requestId = "c1") => d.send({ type: "cashOutRequested", playerId: "ann", requestId });

  it("in time: paid at the multiplier of the moment it is handled, computed from the time since the run started", () => {
    const d = running(500);
    d.advance(7_000);
    const m = crashMultiplierAt(7_000, TIMING.curveRate);
    expect(m).toBeLessThan(500);
    const [sent] = ofKind(cashOut(d), "cashOut");
    expect(sent).toEqual({ kind: "cashOut", playerId: "ann", requestId: "c1", roundId: d.state.round!.roundId, at: m, by: "player" });
    const paid = d.settle(sent!, 100);
    expect(paid).toEqual([{ kind: "cashedOut", playerId: "ann", payout: Math.floor(m), balance: 900 + Math.floor(m) }]);
    expect(d.betOf("ann")).toMatchObject({ status: "cashed_out", cashedOutAt: m });
  });

  it("at the exact boundary: paid at the crash point in the bust's own millisecond, too late one millisecond after", () => {
    // A crash point the curve hits exactly (the default curve moves slower than a hundredth per ms).
    const crashPoint = 180;
    expect(crashMultiplierAt(reachedAt(crashPoint), TIMING.curveRate)).toBe(crashPoint);
    const d = running(crashPoint);
    const bustAt = d.state.runStartedAt + reachedAt(crashPoint);
    d.advanceTo(bustAt - 1);
    d.now = bustAt;
    // The player's message of that millisecond is handled before the bust's wake-up.
    expect(ofKind(cashOut(d), "cashOut")).toMatchObject([{ at: crashPoint }]);

    const e = running(crashPoint);
    const late = e.state.runStartedAt + reachedAt(crashPoint) + 1;
    // The multiplier is still shown as the crash point, but the bust came first (even if its timer is late).
    expect(crashMultiplierAt(late - e.state.runStartedAt, TIMING.curveRate)).toBe(crashPoint);
    e.now = late;
    const refused = cashOut(e);
    expect(ofKind(refused, "refuse")).toEqual([
      { kind: "refuse", requestId: "c1", code: "not_running", message: "Too late: the round has busted" },
    ]);
    expect(ofKind(refused, "bust")).toHaveLength(1);
  });

  it("too late: a curve that jumps over the crash point refuses the cash-out of the bust's millisecond", () => {
    // On the steep curve a millisecond moves more than a hundredth: find a crash point the curve skips.
    let crashPoint = 300;
    while (crashMultiplierAt(reachedAt(crashPoint, STEEP.curveRate), STEEP.curveRate) === crashPoint) crashPoint += 1;
    const d = running(crashPoint, null, STEEP);
    d.advanceTo(d.state.runStartedAt + reachedAt(crashPoint, STEEP.curveRate) - 1);
    d.now += 1;
    expect(ofKind(cashOut(d), "refuse")).toMatchObject([{ code: "not_running", message: "Too late: the round has busted" }]);
  });

  it("refuses with the player's reason: not started, no bet, twice, after the bust; a repeat gets the first answer", () => {
    const d = MachineDriver.betting(roundOf(400));
    expect(ofKind(cashOut(d), "refuse")).toMatchObject([{ code: "not_running", message: "The round has not started yet" }]);
    d.bet("ann", 100);
    d.run();
    expect(ofKind(d.send({ type: "cashOutRequested", playerId: "bob", requestId: "x" }), "refuse")).toMatchObject([
      { code: "no_bet", message: "You have no bet in this round" },
    ]);
    d.advance(2_000);
    const [first] = ofKind(cashOut(d, "c1"), "cashOut");
    expect(cashOut(d, "c1")).toEqual([{ kind: "replay", requestId: "c1" }]);
    expect(ofKind(cashOut(d, "c2"), "refuse")).toMatchObject([{ code: "already_cashed_out", message: "You have already cashed out" }]);
    d.settle(first!, 100);
    expect(ofKind(cashOut(d, "c3"), "refuse")).toMatchObject([{ code: "already_cashed_out" }]);
    d.advance(reachedAt(400));
    d.send({ type: "bustDone", roundId: first!.roundId, ok: true });
    expect(ofKind(cashOut(d, "c4"), "refuse")).toMatchObject([{ code: "already_cashed_out" }]);
    expect(ofKind(d.send({ type: "cashOutRequested", playerId: "bob", requestId: "y" }), "refuse")).toMatchObject([
      { code: "not_running", message: "Too late: the round has busted" },
    ]);
  });

  it("a cash-out the ledger refuses leaves the bet in the round: it may be asked again and the bust settles it", () => {
    const d = running(400);
    d.advance(1_000);
    const [sent] = ofKind(cashOut(d, "c1"), "cashOut");
    d.send({ type: "cashOutFailed", roundId: sent!.roundId, playerId: "ann", requestId: "c1" });
    expect(d.betOf("ann")).toMatchObject({ status: "active", cashOut: null });
    expect(ofKind(cashOut(d, "c2"), "cashOut")).toHaveLength(1);
  });
});

describe("automatic cash-outs", () => {
  it("fire at the millisecond the curve reaches the target, at the target, with the bet's own request id", () => {
    const d = MachineDriver.betting(roundOf(500));
    d.bet("ann", 100, 1.37);
    d.bet("bob", 100, 6); // above the crash point: never sent, lost at the bust
    d.run();
    const at = d.state.runStartedAt + reachedAt(137);
    expect(ofKind(d.advanceTo(at - 1), "cashOut")).toEqual([]);
    const fired = ofKind(d.advanceTo(at), "cashOut");
    const roundId = d.state.round!.roundId;
    expect(fired).toEqual([
      { kind: "cashOut", playerId: "ann", requestId: autoCashOutRequestId(roundId, "ann"), roundId, at: 137, by: "auto" },
    ]);
    expect(fired[0]!.requestId).toBe(`server#crash-auto:${roundId}:ann`);
    d.settle(fired[0]!, 100);
    const rest = d.advanceTo(d.state.bustAt);
    expect(ofKind(rest, "cashOut")).toEqual([]);
    d.send({ type: "bustDone", roundId, ok: true });
    expect(d.state.bets.map((b) => [b.playerId, b.status, b.cashedOutAt])).toEqual([
      ["ann", "cashed_out", 137],
      ["bob", "lost", 0],
    ]);
  });

  it("a target equal to the crash point is paid before the bust", () => {
    const d = MachineDriver.betting(roundOf(250));
    d.bet("ann", 100, 2.5);
    d.run();
    const at = d.advanceTo(d.state.bustAt);
    expect(kinds(at).filter((k) => k === "cashOut" || k === "bust")).toEqual(["cashOut"]);
    d.settle(ofKind(at, "cashOut")[0]!, 100);
    expect(d.state.step).toBe("settling");
  });

  it("a player's cash-out below the target pays the multiplier; one handled after the target was passed is the automatic one", () => {
    const d = MachineDriver.betting(roundOf(900));
    d.bet("ann", 100, 3);
    d.bet("bob", 100, 2);
    d.run();
    d.advance(reachedAt(150));
    expect(ofKind(d.send({ type: "cashOutRequested", playerId: "ann", requestId: "a" }), "cashOut")).toMatchObject([
      { at: 150, by: "player" },
    ]);
    // The wake-up for bob's target is late: his message, handled after it, finds the automatic cash-out sent.
    d.now = d.state.runStartedAt + reachedAt(210);
    const late = d.send({ type: "cashOutRequested", playerId: "bob", requestId: "b" });
    expect(ofKind(late, "cashOut")).toMatchObject([{ at: 200, by: "auto" }]);
    expect(ofKind(late, "refuse")).toMatchObject([{ code: "already_cashed_out" }]);
  });

  it("one the ledger refuses is sent again on the next tick, not in a loop", () => {
    const d = MachineDriver.betting(roundOf(900));
    d.bet("ann", 100, 1.2);
    d.run();
    const [first] = ofKind(d.advanceTo(d.state.runStartedAt + reachedAt(120)), "cashOut");
    const refusedAt = d.now;
    d.send({ type: "cashOutFailed", roundId: first!.roundId, playerId: "ann", requestId: first!.requestId });
    expect(d.state.wakeAt).toBeGreaterThan(refusedAt);
    const again = ofKind(d.advanceTo(d.state.wakeAt!), "cashOut");
    expect(again).toEqual([first]);
  });
});

describe("the bust with bets in flight", () => {
  it("waits for cash-outs the ledger has not answered, refuses new ones, then busts and reveals each result in order", () => {
    const d = MachineDriver.betting(roundOf(300));
    d.bet("ann", 100);
    d.bet("bob", 50);
    d.bet("cid", 20, 2.95);
    d.run();
    d.advanceTo(d.state.bustAt - 1);
    const [sent] = ofKind(d.send({ type: "cashOutRequested", playerId: "ann", requestId: "c1" }), "cashOut");
    const autoCid = ofKind(d.effects, "cashOut").find((c) => c.playerId === "cid")!;
    const atBust = d.advanceTo(d.state.bustAt);
    expect(ofKind(atBust, "bust")).toEqual([]);
    expect(d.state.step).toBe("busting");
    expect(ofKind(d.send({ type: "cashOutRequested", playerId: "bob", requestId: "c2" }), "refuse")).toMatchObject([
      { code: "not_running" },
    ]);
    expect(d.settle(sent!, 100).filter((e) => e.kind === "bust")).toEqual([]);
    const last = d.send({ type: "cashOutFailed", roundId: autoCid.roundId, playerId: "cid", requestId: autoCid.requestId });
    expect(ofKind(last, "bust")).toHaveLength(1);
    const done = d.send({ type: "bustDone", roundId: sent!.roundId, ok: true });
    expect(ofKind(done, "revealed")[0]!.bets).toEqual([
      { playerId: "ann", amount: 100, payout: Math.floor((100 * sent!.at) / 100), cashedOutAt: sent!.at },
      { playerId: "bob", amount: 50, payout: 0, cashedOutAt: null },
      { playerId: "cid", amount: 20, payout: 0, cashedOutAt: null },
    ]);
    expect(d.state.bets.map((b) => b.status)).toEqual(["cashed_out", "lost", "lost"]);
  });
});

describe("stopping", () => {
  const recoverOf = (effects: CrashEffect[]) => ofKind(effects, "recover");

  it("with no round: stopped at once, no wake-up left", () => {
    const d = MachineDriver.opening(0);
    expect(d.send({ type: "stop" })).toEqual([{ kind: "stopped" }]);
  });

  it("in the betting phase: the round is handed to the restart rule, never run", () => {
    const d = MachineDriver.betting(roundOf(300));
    d.bet("ann", 10);
    const roundId = d.state.round!.roundId;
    const stop = d.send({ type: "stop" });
    expect(stop).toEqual([
      { kind: "lease", roundId: null },
      { kind: "recover", roundId },
      { kind: "wake", at: null },
    ]);
    expect(d.advance(60_000)).toEqual([]);
    expect(d.send({ type: "recovered" })).toEqual([{ kind: "stopped" }]);
  });

  it("with bets in flight at the close: no run; the restart rule once they are answered", () => {
    const d = MachineDriver.betting(roundOf(300));
    const roundId = d.state.round!.roundId;
    d.send({ type: "betRequested", playerId: "ann", username: "Ann", requestId: "b1", amount: 5, autoCashOut: null });
    d.advanceTo(d.state.bettingEndsAt);
    expect(recoverOf(d.send({ type: "stop" }))).toEqual([]);
    const after = d.send({ type: "betPlaced", roundId, requestId: "b1", answer: { roundId, balance: 995 } });
    expect(kinds(after)).toEqual(["betAccepted", "lease", "recover"]);
  });

  it("mid-run with a cash-out in flight: the restart rule once it is answered, never an early bust", () => {
    const d = MachineDriver.betting(roundOf(800));
    d.bet("ann", 100);
    d.bet("bob", 100, 5);
    d.run();
    d.advance(3_000);
    const [sent] = ofKind(d.send({ type: "cashOutRequested", playerId: "ann", requestId: "c1" }), "cashOut");
    expect(recoverOf(d.send({ type: "stop" }))).toEqual([]);
    const after = d.settle(sent!, 100);
    expect(recoverOf(after)).toEqual([{ kind: "recover", roundId: sent!.roundId }]);
    expect(ofKind(d.effects, "bust")).toEqual([]);
  });

  it("while the bust is under way: the bust is finished and nothing is left to the restart rule", () => {
    const d = MachineDriver.betting(roundOf(150));
    d.bet("ann", 100);
    d.run();
    const roundId = d.state.round!.roundId;
    d.advanceTo(d.state.bustAt);
    expect(d.send({ type: "stop" })).toEqual([]);
    expect(kinds(d.send({ type: "bustDone", roundId, ok: true }))).toEqual(["revealed", "lease", "stopped"]);
  });

  it("while a round is being opened: the opened round goes to the restart rule", () => {
    const d = MachineDriver.opening();
    d.send({ type: "stop" });
    const round = roundOf(300);
    expect(kinds(d.send({ type: "opened", round }))).toEqual(["lease", "lease", "recover"]);
  });

  it("after a failed step: no log, and the open round goes to the restart rule", () => {
    const d = MachineDriver.betting(roundOf(300));
    d.advanceTo(d.state.bettingEndsAt);
    expect(d.state.step).toBe("starting");
    expect(d.send({ type: "stop" })).toEqual([]);
    const after = d.send({ type: "failed", error: new Error("gone") });
    expect(after).toEqual([
      { kind: "lease", roundId: null },
      { kind: "recover", roundId: d.state.round!.roundId },
    ]);
  });
});

describe("many rounds against a simulated store and ledger", () => {
  /**
   * 20 players, a bet each per round; a third with an automatic target, the others cash out by hand at a
   * target of their own; two also try after the bust and one asks twice. The crash points are a real
   * hash chain's. The simulated ledger applies the same guard as the real one (the bet still in, the
   * round running, the multiplier at or below the crash point) and keeps every coin movement.
   */
  it("every bet settles once, at or below the crash point; a reached target is always paid at the target", () => {
    const ROUNDS = 250;
    const PLAYERS = 20;
    const seed = sha256Hex("machine-many-rounds");
    const points = Array.from({ length: ROUNDS }, (_, i) =>
      Number(crashPointHundredths(chainGameHash(seed, ROUNDS, i + 1), CRASH_CHAIN_SALT)),
    );
    const d = MachineDriver.opening(PLAYERS, STEEP);
    /** Coin movements per bet (`roundId:playerId`). */
    const moves = new Map<string, { bet: number; payout: number }>();
    const move = (key: string, reason: "bet" | "payout") => {
      const counted = moves.get(key) ?? { bet: 0, payout: 0 };
      counted[reason] += 1;
      moves.set(key, counted);
    };
    const stored = new Map<string, { amount: number; auto: number | null; status: string; cashedOutAt: number | null; roundId: string }>();
    const refusals: { playerId: string; code: string }[] = [];
    let phase = "";
    let crashPoint = 0;
    let roundId = "";
    const leaks: string[] = [];

    /** Carries out the ledger's and the store's effects as they come, answering each at once. */
    const carryOut = (effects: CrashEffect[]) => {
      const queue = [...effects];
      for (let e = queue.shift(); e; e = queue.shift()) {
        if (d.state.view.gameHash !== "" && d.state.view.phase !== "busted") leaks.push(d.state.view.roundId);
        if (e.kind === "refuse") refusals.push({ playerId: e.requestId.split(":")[0]!, code: e.code });
        if (e.kind === "placeBet") {
          stored.set(`${e.roundId}:${e.playerId}`, {
            amount: e.amount,
            auto: e.autoCashOut,
            status: "active",
            cashedOutAt: null,
            roundId: e.roundId,
          });
          move(`${e.roundId}:${e.playerId}`, "bet");
          queue.push(
            ...d.send({ type: "betPlaced", roundId: e.roundId, requestId: e.requestId, answer: { roundId: e.roundId, balance: 0 } }),
          );
        }
        if (e.kind === "startRun") {
          phase = "running";
          queue.push(...d.send({ type: "runStarted", roundId: e.roundId, ok: true }));
        }
        if (e.kind === "cashOut") {
          // A hand cash-out is at the multiplier of its moment; an automatic one at its target.
          if (e.by === "player") expect(e.at).toBe(crashMultiplierAt(d.now - d.state.runStartedAt, STEEP.curveRate));
          else expect(e.at).toBe(stored.get(`${e.roundId}:${e.playerId}`)!.auto);
          const bet = stored.get(`${e.roundId}:${e.playerId}`)!;
          if (bet.status === "active" && phase === "running" && e.at >= 100 && e.at <= crashPoint) {
            const payout = Math.floor((bet.amount * e.at) / 100);
            Object.assign(bet, { status: "cashed_out", cashedOutAt: e.at });
            move(`${e.roundId}:${e.playerId}`, "payout");
            const answer = { cashedOutAt: e.at, payout, balance: 0 };
            queue.push(...d.send({ type: "cashOutSettled", roundId: e.roundId, playerId: e.playerId, requestId: e.requestId, answer }));
          } else {
            queue.push(...d.send({ type: "cashOutFailed", roundId: e.roundId, playerId: e.playerId, requestId: e.requestId }));
          }
        }
        if (e.kind === "bust") {
          phase = "busted";
          for (const bet of stored.values()) if (bet.roundId === e.roundId && bet.status === "active") bet.status = "lost";
          queue.push(...d.send({ type: "bustDone", roundId: e.roundId, ok: true }));
        }
        if (e.kind === "openRound") {
          const round = roundOf(points[rounds.length]!);
          [roundId, crashPoint, phase] = [round.roundId, round.crashPoint, "betting"];
          rounds.push(round.roundId);
          queue.push(...d.send({ type: "opened", round }));
        }
      }
    };
    const rounds: string[] = [];
    carryOut(d.effects);

    for (let r = 0; r < ROUNDS; r++) {
      expect(d.state.view.phase).toBe("betting");
      const gameNumber = r + 1;
      const targets = new Map<string, number>();
      for (let i = 0; i < PLAYERS; i++) {
        const auto = i % 3 === 0 ? 1.01 + ((i * 37 + gameNumber * 11) % 300) / 100 : null;
        if (!auto) targets.set(`p${i}`, i === 1 ? 105 : 101 + ((i * 53 + gameNumber * 7) % 250));
        const requestId = `p${i}:bet:${gameNumber}`;
        carryOut(
          d.send({
            type: "betRequested",
            playerId: `p${i}`,
            username: `p${i}`,
            requestId,
            amount: 1 + ((i + gameNumber) % 25),
            autoCashOut: auto,
          }),
        );
      }
      carryOut(d.advanceTo(d.state.bettingEndsAt));
      // Each hand cash-out is sent when the shown multiplier reaches the player's target, as a client does.
      const start = d.state.runStartedAt;
      const order = [...targets].sort((a, b) => a[1] - b[1]);
      for (const [playerId, target] of order) {
        if (d.state.view.phase !== "running") break;
        carryOut(d.advanceTo(Math.min(start + reachedAt(target, STEEP.curveRate), d.state.bustAt)));
        if (d.state.view.phase !== "running") break;
        carryOut(d.send({ type: "cashOutRequested", playerId, requestId: `${playerId}:cash:${gameNumber}` }));
        if (playerId === "p1") carryOut(d.send({ type: "cashOutRequested", playerId, requestId: `${playerId}:again:${gameNumber}` }));
      }
      carryOut(d.advanceTo(d.state.bustAt));
      expect(d.state.view).toMatchObject({ phase: "busted", crashPoint, roundId });
      for (const playerId of ["p18", "p19"])
        carryOut(d.send({ type: "cashOutRequested", playerId, requestId: `${playerId}:late:${gameNumber}` }));
      carryOut(d.advance(STEEP.bustedMs));
    }

    expect(leaks).toEqual([]);
    expect(stored.size).toBe(ROUNDS * PLAYERS);
    const byRound = new Map(rounds.map((id, i) => [id, points[i]!]));
    let cashed = 0;
    for (const [key, bet] of stored) {
      const point = byRound.get(bet.roundId)!;
      expect(["cashed_out", "lost"]).toContain(bet.status);
      if (bet.status === "cashed_out") {
        cashed += 1;
        expect(bet.cashedOutAt!).toBeLessThanOrEqual(point);
        if (bet.auto !== null) expect(bet.cashedOutAt).toBe(bet.auto);
      }
      // An automatic target the round reached is always paid; one above it never.
      if (bet.auto !== null) expect(bet.status).toBe(bet.auto <= point ? "cashed_out" : "lost");
      // Each bet moved coins once each way: one debit, and one credit if it was cashed out.
      expect(moves.get(key)).toEqual({ bet: 1, payout: bet.status === "cashed_out" ? 1 : 0 });
    }
    expect(cashed).toBeGreaterThan(ROUNDS);
    expect(cashed).toBeLessThan(ROUNDS * PLAYERS);
    // The late cash-outs were refused as such; the double ask as already cashed out.
    expect(refusals.filter((r) => r.playerId === "p18" || r.playerId === "p19").map((r) => r.code)).toContain("not_running");
    expect(refusals.filter((r) => r.playerId === "p1").map((r) => r.code)).toContain("already_cashed_out");
    // The machine's own view of each bet matches the ledger's at the end of the last round.
    for (const bet of d.state.bets) expect(bet.status).toBe(stored.get(`${roundId}:${bet.playerId}`)!.status);
  });

  it("each wake-up is a tick, a target or the bust: the ticks keep their beat around a target", () => {
    const d = MachineDriver.betting(roundOf(5_000), 1, TIMING);
    d.bet("ann", 10, 1.5);
    d.run();
    const start = d.state.runStartedAt;
    const target = start + reachedAt(150);
    const wakes = ofKind(d.advance(10_000), "wake").map((w) => w.at!);
    expect(wakes).toContain(target);
    for (const at of wakes) if (at !== target) expect((at - start) % TIMING.tickMs).toBe(0);
    expect(wakes).toHaveLength(10_000 / TIMING.tickMs + 1);
  });
});

describe("the restart rule", () => {
  const bets = [
    { id: "below", autoCashOut: 150 },
    { id: "at", autoCashOut: 240 },
    { id: "above", autoCashOut: 241 },
    { id: "by-hand", autoCashOut: null },
  ];

  it("a round left taking bets is void: every stake goes back, automatic cash-outs too", () => {
    expect(crashRestartPlan({ phase: "betting", crashPoint: 240 }, bets)).toEqual({
      closeAs: "void",
      bets: bets.map((b) => ({ betId: b.id, cashedOutAt: null })),
    });
  });

  it("a running round busts: an automatic cash-out at or below its crash point is paid at it, any other bet gets its stake back", () => {
    expect(crashRestartPlan({ phase: "running", crashPoint: 240 }, bets)).toEqual({
      closeAs: "busted",
      bets: [
        { betId: "below", cashedOutAt: 150 },
        { betId: "at", cashedOutAt: 240 },
        { betId: "above", cashedOutAt: null },
        { betId: "by-hand", cashedOutAt: null },
      ],
    });
  });
});
