import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { showWhenRoundShown } from "../src/app/deferred-toasts";
import { acceptAnswer, requestSent, revealed, useRoom } from "../src/store/room";
import { useSettings } from "../src/store/settings";
import { toast, useToast } from "../src/store/toast";

/** Toasts the server pushes wait for the round on its way or being revealed, and for the toast on screen. */
const roomState = useRoom.getState();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  useRoom.setState({ ...roomState, balance: 100 }, true);
  useToast.setState({ current: null });
  useSettings.setState({ autoBetRunning: false });
});

afterEach(() => {
  vi.useRealTimers();
});

const shown = () => useToast.getState().current?.title ?? null;
const dismiss = () => useToast.getState().dismiss(useToast.getState().current!.id);

describe("pushed toasts", () => {
  it("show at the next check when nothing is on its way", () => {
    showWhenRoundShown({ title: "Reminder" });
    expect(shown()).toBeNull();
    vi.advanceTimersByTime(250);
    expect(shown()).toBe("Reminder");
  });

  it("wait for a bet's answer and its reveal, then for the round's own toast to go", () => {
    requestSent();
    showWhenRoundShown({ title: "Tag unlocked" });
    vi.advanceTimersByTime(2_000);
    expect(shown()).toBeNull();
    acceptAnswer({ requestId: "bet-1", balance: 150, done: true, payout: 60, totalStake: 10, totalPayout: 60 });
    vi.advanceTimersByTime(2_000);
    expect(shown()).toBeNull();
    revealed("bet-1");
    toast({ title: "You won 50 coins" });
    vi.advanceTimersByTime(2_000);
    expect(shown()).toBe("You won 50 coins");
    dismiss();
    vi.advanceTimersByTime(250);
    expect(shown()).toBe("Tag unlocked");
  });

  it("wait while an auto-bet runs", () => {
    useSettings.setState({ autoBetRunning: true });
    showWhenRoundShown({ title: "Daily Spin Ready!" });
    vi.advanceTimersByTime(5_000);
    expect(shown()).toBeNull();
    useSettings.setState({ autoBetRunning: false });
    vi.advanceTimersByTime(250);
    expect(shown()).toBe("Daily Spin Ready!");
  });

  it("come one after another, in the order pushed", () => {
    showWhenRoundShown({ title: "first" });
    showWhenRoundShown({ title: "second" });
    vi.advanceTimersByTime(250);
    expect(shown()).toBe("first");
    vi.advanceTimersByTime(1_000);
    expect(shown()).toBe("first");
    dismiss();
    vi.advanceTimersByTime(250);
    expect(shown()).toBe("second");
    dismiss();
    vi.advanceTimersByTime(1_000);
    expect(shown()).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});
