import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createElement } from "react";
import { act, render, renderHook, screen } from "@testing-library/react";
import { netCoinsText } from "@casino/common/format";
import { BalanceDisplay } from "../src/features/lobby/BalanceDisplay";
import type { CrashRoomBet } from "@casino/common/crash-room";
import { useTableHeaderChip } from "../src/games/blackjack/table/header-chip";
import { useCrashHeaderChip } from "../src/games/crash/shared/use-crash-room";
import type { SeatView } from "../src/games/blackjack/table/Seat";
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

describe("the blackjack table's notes to the header", () => {
  const seat = (staked: number, payout: number | null) => ({ staked, payout }) as unknown as SeatView;

  it("tell each stake of the seat and, once settled, its net figure", () => {
    const notes = () => {
      const n = useRoom.getState().balanceNote;
      return n && { kind: n.kind, amount: n.amount, change: n.change };
    };
    const { rerender } = renderHook((p: { bet: number | null; seat: SeatView | null }) => useTableHeaderChip(p.bet, p.seat), {
      initialProps: { bet: null as number | null, seat: null as SeatView | null },
    });
    expect(notes()).toBeNull();
    rerender({ bet: 10, seat: null });
    expect(notes()).toEqual({ kind: "stake", amount: 10, change: -10 });
    rerender({ bet: 10, seat: seat(10, null) });
    // a double
    rerender({ bet: 10, seat: seat(20, null) });
    expect(notes()).toEqual({ kind: "stake", amount: 10, change: -10 });
    // a double won: 40 paid for 20 staked
    rerender({ bet: 10, seat: seat(20, 40) });
    expect(notes()).toEqual({ kind: "net", amount: 20, change: 40 });
  });

  it("tell nothing of a round found on joining", () => {
    const before = useRoom.getState().balanceNote;
    renderHook(() => useTableHeaderChip(10, seat(10, 0)));
    expect(useRoom.getState().balanceNote).toBe(before);
  });
});

describe("the crash room's notes to the header", () => {
  const bet = (status: CrashRoomBet["status"], payout = 0) =>
    ({ playerId: "p", username: "P", amount: 10, autoCashOut: 0, status, cashedOutAt: 120, payout }) as CrashRoomBet;
  const note = () => {
    const n = useRoom.getState().balanceNote;
    return n && { kind: n.kind, amount: n.amount, change: n.change };
  };

  it("tell the bet's stake, then its cash-out by its net figure, and a bust as -stake", () => {
    const { rerender } = renderHook((p: { round: string | null; mine: CrashRoomBet | null }) => useCrashHeaderChip(p.round, p.mine), {
      initialProps: { round: "r1" as string | null, mine: null as CrashRoomBet | null },
    });
    rerender({ round: "r1", mine: bet("active") });
    expect(note()).toEqual({ kind: "stake", amount: 10, change: -10 });
    rerender({ round: "r1", mine: bet("cashed_out", 12) });
    expect(note()).toEqual({ kind: "net", amount: 2, change: 12 });
    rerender({ round: "r2", mine: null });
    rerender({ round: "r2", mine: bet("active") });
    rerender({ round: "r2", mine: bet("lost") });
    expect(note()).toEqual({ kind: "net", amount: -10, change: 0 });
  });

  it("tell nothing of a bet found on joining", () => {
    const before = useRoom.getState().balanceNote;
    const { rerender } = renderHook((p: { mine: CrashRoomBet | null }) => useCrashHeaderChip("r1", p.mine), {
      initialProps: { mine: bet("active") as CrashRoomBet | null },
    });
    expect(useRoom.getState().balanceNote).toBe(before);
    // its settlement is told: the stake was not, but the figure is the round's
    rerender({ mine: bet("cashed_out", 12) });
    expect(note()).toEqual({ kind: "net", amount: 2, change: 12 });
  });
});
