import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CRASH_MESSAGES } from "@casino/common";
import { ManualClock, type ClockTimer } from "../src/platform/clock";
import { startTestApp, type TestApp } from "./harness";
import { ask } from "./room-helpers";
import { bettingRound, joinCrash, leaveAll, runToBust, startRun, stateOf } from "./crash-room-helpers";

/**
 * A ManualClock whose timers fire a millisecond before their time, as a system timer can when read by
 * the wall clock (Node runs its timers on a monotonic clock). A timer of one millisecond is on time.
 */
class EarlyClock extends ManualClock {
  override setTimeout(fn: () => void, ms: number): ClockTimer {
    return super.setTimeout(fn, ms > 1 ? ms - 1 : ms);
  }
}

let t: TestApp;
const clock = new EarlyClock();
beforeAll(async () => {
  t = await startTestApp({ CRASH_TICK_MS: "20", CRASH_CURVE_RATE: "0.006", BET_RATE_PER_SECOND: "1000" }, { clock });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

describe("the crash room's timers", () => {
  it("a wake-up that comes early is set again: betting closes, the automatic cash-out and the bust come, the next round opens", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCrash(t, token, null);
    let roundId = "";
    // Rounds until one whose crash point is above the 1.01× target (one busting at 1.00× is played out too).
    for (let crashPoint = 0; crashPoint < 101;) {
      roundId = await bettingRound(room, roundId);
      expect((await ask(room, inbox, CRASH_MESSAGES.bet, { amount: 10, autoCashOut: 1.01 })).type).toBe("result");
      await startRun(t, clock, room);
      crashPoint = await runToBust(t, clock, room);
      await clock.advance(t.app.services.config.crash.bustedMs);
    }
    const [bet] = await t.sql(`SELECT status, cashed_out_at, settled_by FROM crash_bets WHERE round_id = $1 AND player_id = $2`, [
      roundId,
      player.id,
    ]);
    expect({ ...bet, cashed_out_at: Number(bet.cashed_out_at) }).toEqual({ status: "cashed_out", cashed_out_at: 101, settled_by: "auto" });
    await bettingRound(room, roundId);
    expect(stateOf(room).gameNumber).toBeGreaterThan(1);
    await leaveAll(t, clock, [room], ["public"]);
  });
});
