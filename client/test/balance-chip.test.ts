import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createElement } from "react";
import { act, render, screen } from "@testing-library/react";
import { netCoinsText } from "@casino/common/format";
import { BalanceDisplay } from "../src/features/lobby/BalanceDisplay";
import { acceptAnswer, requestSent, revealed, sharedRoundSettled, sharedStakePlaced, useRoom } from "../src/store/room";
import { useSettings } from "../src/store/settings";

/**
 * The header's change chip on the real room store: a round is told by its net figure (the toast's and
 * the result line's), a stake as a stake, any other change as itself.
 */
const roomState = useRoom.getState();
const settingsState = useSettings.getState();

beforeEach(() => {
  useRoom.setState({ ...roomState, balance: 1000 }, true);
  // animations off: the shown value lands at once
  useSettings.setState({ ...settingsState, animationsOn: false }, true);
  render(createElement(BalanceDisplay));
});
afterEach(() => {
  useRoom.setState(roomState, true);
  useSettings.setState(settingsState, true);
});

const chip = () => {
  const element = screen.queryByTestId("balance-delta");
  return element ? { text: element.textContent, kind: element.dataset.kind } : null;
};
const balance = () => screen.getByTestId("balance").textContent;

/** A single-step bet answered and then shown by its table. */
function bet(requestId: string, stake: number, payout: number) {
  act(() => requestSent());
  const before = useRoom.getState().balance!;
  act(() => acceptAnswer({ requestId, balance: before - stake + payout, done: true, payout, totalStake: stake, totalPayout: payout }));
}

describe("the header's change chip", () => {
  it("tells a dice win at 1.98x that paid 19 as +9, the toast's figure, never +19", () => {
    bet("dice-1", 10, 19);
    expect(balance()).toBe("990");
    expect(chip()).toEqual({ text: "10 staked", kind: "stake" });
    act(() => revealed("dice-1"));
    expect(balance()).toBe("1,009");
    expect(chip()).toEqual({ text: "+9", kind: "net" });
    expect(netCoinsText(19 - 10)).toBe(`${chip()!.text} coins`);
  });

  it("tells the stake, not the payout, when the room's state brought the answer's balance first", () => {
    act(() => requestSent());
    // the state patch of a win (1000 − 10 + 19) arrives while the header waits for the answer
    act(() => useRoom.setState({ balance: 1009 }));
    act(() => acceptAnswer({ requestId: "dice-3", balance: 1009, done: true, payout: 19, totalStake: 10, totalPayout: 19 }));
    expect(balance()).toBe("990");
    expect(chip()).toEqual({ text: "10 staked", kind: "stake" });
    act(() => revealed("dice-3"));
    expect(chip()).toEqual({ text: "+9", kind: "net" });
  });

  it("tells a loss by its net figure when the table shows it, though the balance does not move then", () => {
    bet("dice-2", 10, 0);
    expect(chip()).toEqual({ text: "10 staked", kind: "stake" });
    act(() => revealed("dice-2"));
    expect(balance()).toBe("990");
    expect(chip()).toEqual({ text: "-10", kind: "net" });
  });

  it("tells a roulette round that paid 20 of 40 staked as -20, never +20", () => {
    bet("roulette-1", 40, 20);
    act(() => revealed("roulette-1"));
    expect(balance()).toBe("980");
    expect(chip()).toEqual({ text: "-20", kind: "net" });
  });

  it("tells a push as 0", () => {
    bet("coin-1", 5, 5);
    act(() => revealed("coin-1"));
    expect(chip()).toEqual({ text: "0", kind: "net" });
  });

  it("tells a shared room's cash-out by its net figure whether the payout comes before or after the room's word", () => {
    // the stake leaves through the room's state
    act(() => sharedStakePlaced(10));
    act(() => useRoom.setState({ balance: 990 }));
    expect(chip()).toEqual({ text: "10 staked", kind: "stake" });
    // the payout first, then the word
    act(() => useRoom.setState({ balance: 1002 }));
    expect(chip()).toEqual({ text: "+12", kind: "change" });
    act(() => sharedRoundSettled(2, 12));
    expect(chip()).toEqual({ text: "+2", kind: "net" });
    // the word first, then the payout
    act(() => sharedStakePlaced(10));
    act(() => useRoom.setState({ balance: 992 }));
    act(() => sharedRoundSettled(2, 12));
    act(() => useRoom.setState({ balance: 1004 }));
    expect(chip()).toEqual({ text: "+2", kind: "net" });
    expect(balance()).toBe("1,004");
    // a bust moves nothing and is told at once
    act(() => sharedRoundSettled(-10, 0));
    expect(chip()).toEqual({ text: "-10", kind: "net" });
  });

  it("tells any other change as itself", () => {
    act(() => useRoom.setState({ balance: 1250 }));
    expect(chip()).toEqual({ text: "+250", kind: "change" });
  });
});
