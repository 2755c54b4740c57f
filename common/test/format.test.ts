import { describe, expect, it } from "vitest";
import {
  formatCoins,
  formatNet,
  netCoinsText,
  formatHoursMinutes,
  formatMultiplier,
  formatRecordTime,
  formatExactCoins,
  gamesAvailable,
  paidText,
  payoutText,
  ratioPayoutParts,
  ratioPayoutText,
  wholeCoinsAround,
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
    expect(formatNet(250)).toBe("+250");
    expect(formatNet(-1500)).toBe("-1,500");
  });

  it("tells a payout honestly: the exact value, the whole coins it pays and its average", () => {
    // dice, 10 coins at 1.98×: 10 × 198/100 = 19.8
    expect(payoutText((10 * 198) / 100)).toBe("19.8: pays 19 or 20, 19.8 on average");
    // a whole payout is just its coins, float noise of a product included
    expect(payoutText(10 * 2)).toBe("20");
    expect(payoutText(0.1 * 3 * 10)).toBe("3");
    expect(payoutText(1_285_714 / 7)).toBe("183,673.43: pays 183,673 or 183,674, 183,673.43 on average");
    // several bets rounded one by one: the range the caller knows
    expect(payoutText(19.5, { low: 19, high: 21 })).toBe("19.5: pays 19 to 21, 19.5 on average");
    // close to a whole coin, never shown as one
    expect(formatExactCoins(19.999)).toBe("19.999");
    expect(payoutText(19.999)).toBe("19.999: pays 19 or 20, 19.999 on average");
    expect(wholeCoinsAround(27.5)).toEqual([27, 28]);
    expect(wholeCoinsAround(0.99 * 100)).toEqual([99, 99]);
  });

  it("tells a cash-out of a whole ratio exactly: the crash room's 10 coins at 1.23×", () => {
    expect(ratioPayoutText(10, 123, 100)).toBe("12.3: pays 12 or 13, 12.3 on average");
    expect(ratioPayoutText(10, 120, 100)).toBe("12");
    expect(ratioPayoutText(1_000_000, 1_000_000_00, 100)).toBe("100,000,000");
    // the same in two parts, for the Cash out button's two lines
    expect(ratioPayoutParts(10, 123, 100)).toEqual({ value: "12.3", pays: "pays 12 or 13, 12.3 on average" });
    expect(ratioPayoutParts(10, 120, 100)).toEqual({ value: "12", pays: null });
    expect(ratioPayoutParts(1_000_000, 1_000_000_00, 100)).toEqual({ value: "100,000,000", pays: null });
  });

  it("tells what a settled payout was paid for", () => {
    expect(paidText(19, 19.8)).toBe("paid 19 of 19.8 (19 or 20, 19.8 on average)");
    expect(paidText(20, 19.8)).toBe("paid 20 of 19.8 (19 or 20, 19.8 on average)");
    expect(paidText(20, null)).toBe("paid 20");
    expect(paidText(20, 20)).toBe("paid 20");
    // two bets of 0.5 each, rounded on their own, paid 2 for a sum of 1
    expect(paidText(2, 1)).toBe("paid 2 of 1 (1 or 2, 1 on average)");
  });

  it("tells a round by one signed net figure, payout minus stake, and a gross amount only as paid", () => {
    expect(formatNet(9)).toBe("+9");
    expect(formatNet(-10)).toBe("-10");
    expect(formatNet(0)).toBe("0");
    expect(formatNet(1_234_567)).toBe("+1,234,567");
    expect(netCoinsText(9)).toBe("+9 coins");
    expect(netCoinsText(1)).toBe("+1 coin");
    expect(netCoinsText(-1)).toBe("-1 coin");
    expect(netCoinsText(-1_500)).toBe("-1,500 coins");
    expect(netCoinsText(0)).toBe("0 coins");
    // dice at 10 coins, 1.98×: a win pays 19 or 20, the round's figure is +9 or +10, never +19 or +20
    expect(roundResultText("win", 10, 19, 1, 19.8)).toBe("You won: +9 coins");
    expect(roundResultText("win", 10, 20, 1, 19.8)).toBe("You won: +10 coins");
    // roulette: 40 staked on two spots, one paid 20: the round lost 20, whatever it paid
    expect(roundResultText("lose", 40, 20, 2)).toBe("You lost: -20 coins");
    // the figure the result line leads with is the one the chip and the toast tell
    for (const [stake, payout] of [
      [10, 19],
      [10, 0],
      [40, 20],
      [3, 3],
    ] as const) {
      expect(roundResultText(payout > stake ? "win" : payout < stake ? "lose" : "push", stake, payout)).toContain(
        netCoinsText(payout - stake),
      );
    }
  });

  it("tells a win whose rounding came out at the stake as a win, never as a push", () => {
    // a 1-coin coin flip win: 1.98 paid as 1
    expect(roundResultText("push", 1, 1, 1, 1.98)).toBe("Win at 1.98×: 0 coins, 1.98 paid as 1 coin after rounding, your stake back");
    expect(roundResultText("push", 1, 1, 1, 1.98)).not.toContain("Push");
    // the same win paid 2, and a genuine push (a tie, nothing rounded)
    expect(roundResultText("win", 1, 2, 1, 1.98)).toBe("You won: +1 coin");
    expect(roundResultText("push", 10, 10)).toBe("Push: 0 coins, your bet is returned");
    // several bets: break even, with the rounding said
    expect(roundResultText("push", 2, 2, 2, 1.95)).toBe("Break even: 0 coins, 1.95 paid as 2 coins after rounding");
    expect(roundResultText("push", 2, 2, 2)).toBe("Break even: 0 coins, your bets paid back the 2 staked");
    // a cash-out below the stake (hi-lo at 0.99×) rounded down to nothing, and up to the stake
    expect(roundResultText("lose", 1, 0, 1, 0.99)).toBe("You lost: -1 coin, 0.99 paid as 0 coins after rounding");
    expect(roundResultText("push", 1, 1, 1, 0.99)).toBe("Break even: 0 coins, 0.99 paid as 1 coin after rounding");
    expect(roundResultText("lose", 1_500, 0)).toBe("You lost: -1,500 coins");
    expect(roundResultText("lose", 5, 5)).toBe("No win: 0 coins");
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
