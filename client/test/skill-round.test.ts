import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import type { SkillRoundReward, SkillRoundStart } from "@casino/common/skill/api";
import { useSkillRound } from "../src/games/shared/skill-round";
import { useLeaderboard } from "../src/store/leaderboard";
import { useSettings } from "../src/store/settings";
import { useToast } from "../src/store/toast";

/** A skill round over REST; the server is a fake `fetch` answering each path as the test says. */
interface Call {
  url: string;
  method: string;
  body: any;
}
let calls: Call[];
let answer: (call: Call) => Response | "network";

beforeEach(() => {
  calls = [];
  useSettings.setState({ soundOn: false });
  useToast.setState({ current: null });
  answer = () => json({ playedToday: 0, dailyCap: 5 });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const call = { url, method: init.method ?? "GET", body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const reply = call.url === "/api/skill-rounds/today" ? json({ playedToday: 2, dailyCap: 5 }) : answer(call);
      if (reply === "network") throw new TypeError("Failed to fetch");
      return reply;
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const STARTED: SkillRoundStart = {
  roundId: "r/1",
  game: "dots",
  seed: "s",
  startedAt: "2026-01-01T00:00:00Z",
  roundTicks: 600,
  playedToday: 3,
  dailyCap: 5,
};
const reward = (fields: Partial<SkillRoundReward>): SkillRoundReward => ({
  requestId: "x",
  roundId: "r/1",
  game: "dots",
  kills: null,
  completionMs: 4200,
  reward: 0,
  balance: 100,
  ...fields,
});

async function started() {
  const onStart = vi.fn();
  const hook = renderHook(() => useSkillRound("dots", onStart));
  await act(async () => {
    await Promise.resolve();
  });
  answer = () => json(STARTED, 201);
  await act(async () => {
    await hook.result.current.start();
  });
  return { ...hook, onStart };
}

describe("a skill round", () => {
  it("reads today's count, starts with a request id and gives the table the round first", async () => {
    const { result, onStart } = await started();
    expect(calls[0]).toMatchObject({ url: "/api/skill-rounds/today", method: "GET" });
    expect(calls[1]).toMatchObject({ url: "/api/skill-rounds", method: "POST", body: { game: "dots" } });
    expect(calls[1].body.requestId).toMatch(/^dots-[0-9a-f]{24}$/);
    expect(onStart).toHaveBeenCalledWith(STARTED);
    expect(result.current).toMatchObject({ phase: "playing", round: STARTED, today: { playedToday: 3, dailyCap: 5 }, startError: null });
  });

  it("shows the server's refusal to start and its daily count", async () => {
    const { result } = renderHook(() => useSkillRound("dots", () => undefined));
    answer = () => json({ error: "You have played 5 rounds today", code: "daily_cap", playedToday: 5, dailyCap: 5 }, 429);
    await act(async () => {
      expect(await result.current.start()).toBeNull();
    });
    expect(result.current).toMatchObject({
      phase: "idle",
      startError: "You have played 5 rounds today",
      today: { playedToday: 5, dailyCap: 5 },
    });
  });

  it("shows the server's reward, toasts a win and refreshes the boards", async () => {
    const { result } = await started();
    const version = useLeaderboard.getState().version;
    answer = (call) => json(reward({ requestId: call.body.requestId, reward: 25 }));
    await act(() => result.current.submit({ game: "dots", inputs: [[1, 2]], claimedCompletionMs: 4200 }));
    const submit = calls.at(-1)!;
    expect(submit).toMatchObject({
      url: "/api/skill-rounds/r%2F1/submit",
      method: "POST",
      body: { inputs: [[1, 2]], claimedCompletionMs: 4200 },
    });
    expect(result.current.phase).toBe("done");
    expect(result.current.outcome).toEqual({ kind: "rewarded", answer: reward({ requestId: submit.body.requestId, reward: 25 }) });
    expect(useToast.getState().current).toMatchObject({ title: "You won!", description: "+25 coins" });
    expect(useLeaderboard.getState().version).toBe(version + 1);
    expect(result.current.past).toHaveLength(1);
  });

  it("sends a score again with the same request id after a network failure, at most 3 times", async () => {
    const { result } = await started();
    let failures = 2;
    answer = (call) => (failures-- > 0 ? "network" : json(reward({ requestId: call.body.requestId })));
    await act(() => result.current.submit({ game: "dots", inputs: [], claimedCompletionMs: 1 }));
    const submits = calls.filter((c) => c.url.endsWith("/submit"));
    expect(submits).toHaveLength(3);
    expect(new Set(submits.map((c) => c.body.requestId)).size).toBe(1);
    expect(result.current.outcome?.kind).toBe("rewarded");
    expect(useToast.getState().current).toBeNull();

    await act(async () => {
      await result.current.start();
    });
    answer = () => "network";
    await act(() => result.current.submit({ game: "dots", inputs: [], claimedCompletionMs: 1 }));
    expect(calls.filter((c) => c.url.endsWith("/submit"))).toHaveLength(6);
    expect(result.current.outcome).toEqual({ kind: "refused", message: "Failed to fetch", code: null });
  });

  it("does not send a refused score again, and shows the refusal word for word", async () => {
    const { result } = await started();
    answer = () => json({ error: "The input log does not replay to that time", code: "log_refused", reason: "mismatch" }, 422);
    await act(() => result.current.submit({ game: "dots", inputs: [], claimedCompletionMs: 1 }));
    expect(calls.filter((c) => c.url.endsWith("/submit"))).toHaveLength(1);
    expect(result.current.outcome).toEqual({ kind: "refused", message: "The input log does not replay to that time", code: "log_refused" });
  });

  it("ends a round without a score, sending nothing", async () => {
    const { result } = await started();
    const before = calls.length;
    act(() => result.current.endUnscored("Time is up"));
    expect(calls).toHaveLength(before);
    expect(result.current).toMatchObject({ phase: "done", outcome: { kind: "unscored", message: "Time is up" } });
  });
});
