import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createElement } from "react";
import { MotionGlobalConfig } from "motion/react";
import { act, render, renderHook } from "@testing-library/react";
import { gameDefinition, type GameId } from "@casino/common/catalogue";
import type { BetAnswer } from "@casino/common/protocol";
import { fakeServer, type FakeRoom } from "./fake-colyseus";
import { connectRoom } from "../src/app/start";
import { useGameConnection } from "../src/features/game-host/game-connection";
import { RoomFailure } from "../src/net/room-failure";
import { RoundResult } from "../src/games/shared/RoundResult";
import { useRound, type RoundControls } from "../src/games/shared/use-round";
import { shownBalance, useRoom } from "../src/store/room";
import { useSettings } from "../src/store/settings";

vi.mock("@colyseus/sdk", () => import("./fake-colyseus"));

/**
 * The round hook on the shell's real game connection and room store; only the server is a fake. The
 * header's figure is `shownBalance`, which the balance display counts to.
 */
const roomState = useRoom.getState();
const settingsState = useSettings.getState();
let room: FakeRoom;

beforeEach(async () => {
  fakeServer.reset();
  useRoom.setState(roomState, true);
  useSettings.setState(settingsState, true);
  await connectRoom("tok");
  await vi.waitFor(() => expect(useRoom.getState().status).toBe("open"));
  room = fakeServer.room;
  room.patch({ balance: 1000 });
  room.message("open-round", { round: null });
  vi.useFakeTimers();
  // the result banner's fade-in is not what these tests are about (and has no animation engine here)
  MotionGlobalConfig.skipAnimations = true;
});

afterEach(() => {
  MotionGlobalConfig.skipAnimations = false;
  vi.useRealTimers();
  useRoom.getState().connection?.close();
});

/**
 * A table of `game` as the games draw one: the round hook, and its result banner (`RoundResult`), whose
 * appearance is the moment the round may be told elsewhere. `banner: false`: a table that never shows it.
 */
function table(game: GameId, revealMs: number | ((answer: BetAnswer) => number) = 1000, banner = true) {
  const onRoundEnd = vi.fn<(answer: BetAnswer) => void>();
  const current: { value?: { round: RoundControls<unknown>; shown: number | null } } = {};
  function Table() {
    const connection = useGameConnection(game);
    const balance = useRoom((s) => s.balance) ?? 0;
    const round = useRound<unknown>({ game: gameDefinition(game)!, connection, balance, onRoundEnd, onExit: () => undefined }, revealMs);
    current.value = { round, shown: useRoom(shownBalance) };
    return banner ? createElement(RoundResult, { round: round.round }) : null;
  }
  const view = render(createElement(Table));
  return { ...view, onRoundEnd, now: () => current.value! };
}

/** The server settles the last request of `type`: the state patch first, then the answer, as the room does. */
function answer(type: "bet" | "act", fields: Partial<BetAnswer> & Pick<BetAnswer, "balance">): BetAnswer {
  const sent = room.sentOf(type).at(-1);
  const body: BetAnswer = {
    requestId: sent.requestId,
    game: "dice",
    roundId: null,
    done: true,
    stake: 0,
    payout: 0,
    totalStake: 0,
    totalPayout: 0,
    result: null,
    view: { roll: 42 },
    fairness: { serverSeedHash: "h", clientSeed: "c", nonce: 1 } as unknown as BetAnswer["fairness"],
    ...fields,
  };
  room.patch({ balance: body.balance });
  room.message("result", body);
  return body;
}

async function settle<T>(promise: Promise<T>): Promise<T> {
  let value!: T;
  await act(async () => {
    value = await promise;
  });
  return value;
}

describe("a single-step round", () => {
  it("takes the stake off the shown balance on acceptance and credits the payout once the reveal has played", async () => {
    const t = table("dice", 1000);
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(100, { target: 50 });
    });
    expect(t.now().round.pending).toBe(true);
    expect(useRoom.getState().inFlight).toBe(1);
    expect(room.sentOf("bet")[0]).toMatchObject({ game: "dice", amount: 100, params: { target: 50 } });

    const sent = answer("bet", { stake: 100, payout: 250, totalStake: 100, totalPayout: 250, result: "win", balance: 1150 });
    expect(await settle(placed)).toEqual(sent);
    expect(t.now().round.pending).toBe(false);
    expect(useRoom.getState().inFlight).toBe(0);
    expect(t.now().shown).toBe(900);
    expect(t.now().round.round).toMatchObject({ done: true, revealed: false, result: "win", view: { roll: 42 } });
    expect(t.now().round.settledCount).toBe(1);
    expect(t.now().round.fast).toBe(false);

    act(() => vi.advanceTimersByTime(999));
    expect(t.now().shown).toBe(900);
    expect(t.onRoundEnd).not.toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(1));
    expect(t.onRoundEnd).toHaveBeenCalledTimes(1);
    expect(t.onRoundEnd).toHaveBeenCalledWith(sent);
    expect(t.now().shown).toBe(1150);
    expect(t.now().round.round?.revealed).toBe(true);
    expect(useRoom.getState().withheld).toEqual({});
  });

  it("holds a lost round too until its reveal, so pushed toasts wait for it", async () => {
    const t = table("dice", 500);
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(100, {});
    });
    const sent = answer("bet", { stake: 100, totalStake: 100, result: "lose", balance: 900 });
    await settle(placed);
    expect(useRoom.getState().withheld).toEqual({ [sent.requestId]: 0 });
    expect(t.now().shown).toBe(900);
    act(() => vi.advanceTimersByTime(500));
    expect(useRoom.getState().withheld).toEqual({});
    expect(t.onRoundEnd).toHaveBeenCalledWith(sent);
  });

  it("asks the reveal's length of a function of the answer", async () => {
    const revealMs = vi.fn((a: BetAnswer) => (a.result === "win" ? 2000 : 100));
    const t = table("dice", revealMs);
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(10, {});
    });
    const sent = answer("bet", { stake: 10, payout: 20, result: "win", balance: 1010 });
    await settle(placed);
    expect(revealMs).toHaveBeenCalledWith(sent);
    act(() => vi.advanceTimersByTime(1999));
    expect(t.onRoundEnd).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(t.onRoundEnd).toHaveBeenCalledTimes(1);
  });

  it.each([
    ["Turbo", () => useSettings.getState().setTurbo(true)],
    ["an auto-bet", () => useSettings.getState().setAutoBetRunning(true)],
    ["animations off", () => useSettings.setState({ animationsOn: false })],
  ])("shows the result and the payout with the answer under %s", async (_, fastOn) => {
    act(fastOn);
    const t = table("dice", 1000);
    expect(t.now().round.fast).toBe(true);
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(100, {});
    });
    const sent = answer("bet", { stake: 100, payout: 300, result: "win", balance: 1200 });
    await settle(placed);
    expect(t.onRoundEnd).toHaveBeenCalledWith(sent);
    expect(t.now().shown).toBe(1200);
    expect(t.now().round.round?.revealed).toBe(true);
    expect(useRoom.getState().withheld).toEqual({});
  });

  it("ends a round when its table shows the result, or a while after its reveal if it never does", async () => {
    const t = table("dice", 1000, false);
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(100, {});
    });
    const sent = answer("bet", { stake: 100, payout: 200, result: "win", balance: 1100 });
    await settle(placed);
    act(() => vi.advanceTimersByTime(1000));
    // the reveal has played, but no result is on the table: nothing tells it yet
    expect(t.now().round.round?.revealed).toBe(true);
    expect(t.onRoundEnd).not.toHaveBeenCalled();
    expect(t.now().shown).toBe(900);
    act(() => vi.advanceTimersByTime(2999));
    expect(t.onRoundEnd).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(t.onRoundEnd).toHaveBeenCalledWith(sent);
    expect(t.now().shown).toBe(1100);
    expect(useRoom.getState().withheld).toEqual({});
  });

  it("still reports a round whose table closed before its reveal, and credits it", async () => {
    const t = table("dice", 1000);
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(100, {});
    });
    const sent = answer("bet", { stake: 100, payout: 200, result: "win", balance: 1100 });
    await settle(placed);
    expect(shownBalance(useRoom.getState())).toBe(900);
    t.unmount();
    expect(t.onRoundEnd).toHaveBeenCalledWith(sent);
    expect(shownBalance(useRoom.getState())).toBe(1100);
    act(() => vi.advanceTimersByTime(5000));
    expect(t.onRoundEnd).toHaveBeenCalledTimes(1);
  });

  it("sends one request at a time", async () => {
    const t = table("dice");
    let first!: Promise<BetAnswer | null>;
    let second!: Promise<BetAnswer | null>;
    act(() => {
      first = t.now().round.bet(10, {});
      second = t.now().round.bet(20, {});
    });
    expect(await settle(second)).toBeNull();
    expect(room.sentOf("bet")).toHaveLength(1);
    answer("bet", { stake: 10, result: "lose", balance: 990 });
    await settle(first);
    let third!: Promise<BetAnswer | null>;
    act(() => {
      third = t.now().round.bet(30, {});
    });
    expect(room.sentOf("bet")).toHaveLength(2);
    answer("bet", { stake: 30, result: "lose", balance: 960 });
    await settle(third);
  });

  it("takes no balance from a replayed answer, which tells the balance of then", async () => {
    useRoom.setState({ balance: 700 });
    const t = table("dice");
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(100, {});
    });
    const sent = room.sentOf("bet")[0];
    room.message("result", {
      requestId: sent.requestId,
      game: "dice",
      roundId: null,
      done: true,
      stake: 100,
      payout: 0,
      totalStake: 100,
      totalPayout: 0,
      result: "lose",
      balance: 1000,
      view: null,
      fairness: {},
      replayed: true,
    });
    await settle(placed);
    expect(useRoom.getState().balance).toBe(700);
    expect(useRoom.getState().withheld).toEqual({});
    expect(useRoom.getState().inFlight).toBe(0);
  });
});

describe("refusals", () => {
  it("show the server's words, leave the balance and tell no round", async () => {
    const t = table("dice");
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(5000, {});
    });
    const { requestId } = room.sentOf("bet")[0];
    room.message("error", { requestId, code: "insufficient_funds", message: "Not enough coins" });
    expect(await settle(placed)).toBeNull();
    expect(t.now().round.error).toBe("Not enough coins");
    expect(t.now().round.round).toBeNull();
    expect(t.now().shown).toBe(1000);
    expect(useRoom.getState().inFlight).toBe(0);
    act(() => vi.advanceTimersByTime(5000));
    expect(t.onRoundEnd).not.toHaveBeenCalled();
    // the next bet clears the message
    act(() => {
      void t.now().round.bet(10, {});
    });
    expect(t.now().round.error).toBeNull();
  });

  it("reach the game connection's caller as a RoomFailure with code and details", async () => {
    const { result } = renderHook(() => useGameConnection("dice"));
    const placed = result.current.bet(5000, undefined);
    const sent = room.sentOf("bet")[0];
    expect(sent).not.toHaveProperty("params");
    room.message("error", { requestId: sent.requestId, code: "limit", message: "Over the table limit", details: { max: 1000 } });
    const error = await placed.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoomFailure);
    expect(error).toMatchObject({ code: "limit", message: "Over the table limit", details: { max: 1000 } });
  });

  it("say the connection was lost when it is gone for good", async () => {
    const t = table("dice");
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(10, {});
    });
    act(() => useRoom.getState().connection?.close());
    expect(await settle(placed)).toBeNull();
    expect(t.now().round.error).toBe("Connection closed");
    expect(useRoom.getState().inFlight).toBe(0);
  });
});

describe("a multi-step round", () => {
  it("takes each step's stake at once and holds the payout of the last step until the reveal", async () => {
    const t = table("blackjack", 800);
    let placed!: Promise<BetAnswer | null>;
    act(() => {
      placed = t.now().round.bet(100, {});
    });
    answer("bet", { game: "blackjack", roundId: "r-1", done: false, stake: 100, totalStake: 100, balance: 900, view: { step: 1 } });
    await settle(placed);
    expect(t.now().shown).toBe(900);
    expect(t.now().round.open).toMatchObject({ roundId: "r-1", done: false, view: { step: 1 } });
    expect(useRoom.getState().withheld).toEqual({});

    let doubled!: Promise<BetAnswer | null>;
    act(() => {
      doubled = t.now().round.act({ type: "double" });
    });
    expect(room.sentOf("act")[0]).toMatchObject({ action: { type: "double" } });
    const last = answer("act", {
      game: "blackjack",
      roundId: "r-1",
      done: true,
      stake: 100,
      payout: 400,
      totalStake: 200,
      totalPayout: 400,
      result: "win",
      balance: 1200,
      view: { step: 2 },
    });
    await settle(doubled);
    expect(t.now().shown).toBe(800);
    expect(t.now().round.open).toBeNull();
    expect(t.now().round.round).toMatchObject({ roundId: "r-1", done: true, revealed: false });
    act(() => vi.advanceTimersByTime(800));
    expect(t.now().shown).toBe(1200);
    expect(t.onRoundEnd).toHaveBeenCalledWith(last);
  });

  it("resumes this game's open round from the room state and tells another game's apart", async () => {
    const open = { roundId: "r-9", game: "blackjack", totalStake: 50, totalPayout: 0, view: { hand: ["A", "7"] } };
    act(() => {
      room.patch({ balance: 950 });
      room.message("open-round", { round: open });
    });
    const mine = table("blackjack");
    expect(mine.now().round.open).toMatchObject({ roundId: "r-9", view: { hand: ["A", "7"] }, totalStake: 50, answer: null });
    expect(mine.now().round.otherOpen).toBeNull();
    const other = table("mines");
    expect(other.now().round.round).toBeNull();
    expect(other.now().round.otherOpen).toEqual(open);

    // the answer to the round's last step wins over the state still mirroring it as open
    let stood!: Promise<BetAnswer | null>;
    act(() => {
      stood = mine.now().round.act({ type: "stand" });
    });
    const sent = room.sentOf("act")[0];
    room.message("result", {
      requestId: sent.requestId,
      game: "blackjack",
      roundId: "r-9",
      done: true,
      stake: 0,
      payout: 100,
      totalStake: 50,
      totalPayout: 100,
      result: "win",
      balance: 1050,
      view: { hand: ["A", "7"], dealer: 17 },
      fairness: {},
    });
    await settle(stood);
    expect(mine.now().round.open).toBeNull();
    expect(mine.now().round.round).toMatchObject({ roundId: "r-9", done: true });
  });
});
