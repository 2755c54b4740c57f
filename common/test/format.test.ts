import { describe, expect, it } from "vitest";
import {
  formatCoins,
  formatDelta,
  formatHoursMinutes,
  formatMultiplier,
  formatRecordTime,
  formatWholePayout,
  gamesAvailable,
  roundResultText,
  spinAvailability,
} from "../src/format";
import { objectiveText } from "../src/tags";
import { DAILY_SPIN_COOLDOWN_MS } from "../src/constants";

describe("display formats", () => {
  it("separates thousands", () => {
    expect(formatCoins(0)).toBe("0");
    expect(formatCoins(1000)).toBe("1,000");
    expect(formatCoins(1234567)).toBe("1,234,567");
    expect(formatDelta(250)).toBe("+250");
    expect(formatDelta(-1500)).toBe("-1,500");
  });

  it("a payout still to be rounded reads as the two whole numbers it can pay", () => {
    expect(formatWholePayout(12, 12)).toBe("12");
    expect(formatWholePayout(12, 13)).toBe("12 or 13");
    expect(formatWholePayout(1234, 1235)).toBe("1,234 or 1,235");
  });

  it("tells a win whose rounding came out at the stake as a win, never as a push", () => {
    // a 1-coin coin flip win: 1.98 paid as 1
    expect(roundResultText("push", 1, 1, 1, 1.98)).toBe("Win at 1.98×: 1.98 paid as 1 coin after rounding, your stake back");
    expect(roundResultText("push", 1, 1, 1, 1.98)).not.toContain("Push");
    // the same win paid 2, and a genuine push (a tie, nothing rounded)
    expect(roundResultText("win", 1, 2, 1, 1.98)).toBe("You won +1 coin");
    expect(roundResultText("push", 10, 10)).toBe("Push: your bet is returned");
    // several bets: break even, with the rounding said
    expect(roundResultText("push", 2, 2, 2, 1.95)).toBe("Break even: 1.95 paid as 2 coins after rounding");
    expect(roundResultText("push", 2, 2, 2)).toBe("Break even: your bets paid back the 2 staked");
    // a cash-out below the stake (hi-lo at 0.99×) rounded down to nothing, and up to the stake
    expect(roundResultText("lose", 1, 0, 1, 0.99)).toBe("You lost 1 coin: 0.99 paid as 0 coins after rounding");
    expect(roundResultText("push", 1, 1, 1, 0.99)).toBe("Break even: 0.99 paid as 1 coin after rounding");
    expect(roundResultText("lose", 1_500, 0)).toBe("You lost 1,500 coins");
  });

  it("shows every multiplier with two decimals and thousands separators", () => {
    expect(formatMultiplier(4 / 3)).toBe("1.33×");
    expect(formatMultiplier(1.0102)).toBe("1.01×");
    expect(formatMultiplier(1.98)).toBe("1.98×");
    expect(formatMultiplier(16)).toBe("16.00×");
    expect(formatMultiplier(9900)).toBe("9,900.00×");
    expect(formatMultiplier(0)).toBe("0.00×");
  });

  it("writes the numbers of tag objectives with thousands separators", () => {
    expect(objectiveText("balance", 5000)).toBe("Reach 5,000 coins");
    expect(objectiveText("total_games", 1000)).toBe("Play 1,000 games");
    expect(objectiveText("win_streak", 5)).toBe("Win 5 games in a row");
  });

  it("shows record times as mm:ss from a minute, else seconds with hundredths", () => {
    expect(formatRecordTime(0)).toBe("0.00s");
    expect(formatRecordTime(4_567)).toBe("4.56s");
    expect(formatRecordTime(59_999)).toBe("59.99s");
    expect(formatRecordTime(60_000)).toBe("01:00");
    expect(formatRecordTime(65_432)).toBe("01:05");
    expect(formatRecordTime(725_000)).toBe("12:05");
  });

  it("counts down to the next spin in hours and minutes", () => {
    expect(formatHoursMinutes(DAILY_SPIN_COOLDOWN_MS)).toBe("24h 0m");
    expect(formatHoursMinutes(5 * 3_600_000 + 7 * 60_000)).toBe("5h 7m");
    expect(formatHoursMinutes(30_000)).toBe("0h 1m");
  });

  it("knows when the daily spin is ready", () => {
    const now = Date.parse("2025-10-30T12:00:00Z");
    expect(spinAvailability(null, now)).toEqual({ ready: true, msLeft: 0 });
    expect(spinAvailability("2025-10-29T12:00:00Z", now)).toEqual({ ready: true, msLeft: 0 });
    expect(spinAvailability("2025-10-30T11:00:00Z", now)).toEqual({ ready: false, msLeft: 23 * 3_600_000 });
    // A spin stamped by a server clock ahead of this device never reads more than the cooldown.
    expect(spinAvailability("2025-10-30T12:00:30Z", now)).toEqual({ ready: false, msLeft: DAILY_SPIN_COOLDOWN_MS });
  });

  it("says how many games a category has", () => {
    expect(gamesAvailable(1)).toBe("1 game available");
    expect(gamesAvailable(5)).toBe("5 games available");
  });
});
