import { describe, expect, it } from "vitest";
import {
  formatCoins,
  formatDelta,
  formatHoursMinutes,
  formatMultiplier,
  formatRecordTime,
  gamesAvailable,
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
