import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PlayerRecord } from "@casino/common/api";

/**
 * The play settings store: the device's copy is read when the module loads, so each test loads it
 * afresh over the device storage it sets up. REST is a fake `fetch`.
 */
type Settings = typeof import("../src/store/settings");
type Session = typeof import("../src/store/session");

let fetchCalls: { url: string; method: string; body: unknown }[];
let fetchStatus: number;

beforeEach(() => {
  vi.resetModules();
  fetchCalls = [];
  fetchStatus = 200;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      fetchCalls.push({ url, method: init.method ?? "GET", body: init.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify(fetchStatus === 200 ? { ok: true } : { error: "down" }), { status: fetchStatus });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function load(device: Record<string, string> = {}): Promise<Settings & Session> {
  for (const [key, value] of Object.entries(device)) localStorage.setItem(key, value);
  return { ...(await import("../src/store/settings")), ...(await import("../src/store/session")) };
}

const stored = () => JSON.parse(localStorage.getItem("play-settings") ?? "null");
const player = (fields: Partial<PlayerRecord>) => ({ id: "p1", isGuest: false, balance: 0, ...fields }) as PlayerRecord;

describe("the device's copy", () => {
  it("gives the defaults when there is none or it cannot be read", async () => {
    for (const device of [
      {} as Record<string, string>,
      { "play-settings": "{not json" },
      { "play-settings": "[1,2]" },
      { "play-settings": "null" },
    ]) {
      localStorage.clear();
      vi.resetModules();
      const { useSettings } = await load(device);
      const { soundOn, soundVolume, animationsOn, resultToastsOn, reactionsOn, turbo } = useSettings.getState();
      expect({ soundOn, soundVolume, animationsOn, resultToastsOn, reactionsOn, turbo }).toEqual({
        soundOn: true,
        soundVolume: 100,
        animationsOn: true,
        resultToastsOn: true,
        reactionsOn: true,
        turbo: false,
      });
    }
  });

  it("keeps each valid field and replaces each invalid one by its default", async () => {
    const { useSettings } = await load({
      "play-settings": JSON.stringify({ soundOn: "no", soundVolume: 40, animationsOn: false }),
      turbo: "on",
    });
    expect(useSettings.getState()).toMatchObject({ soundOn: true, soundVolume: 40, animationsOn: false, turbo: true });
  });

  it.each([101, -1, 12.5, "50", null])("refuses the volume %s", async (soundVolume) => {
    const { useSettings } = await load({ "play-settings": JSON.stringify({ soundOn: false, soundVolume }) });
    expect(useSettings.getState()).toMatchObject({ soundOn: false, soundVolume: 100 });
  });
});

describe("adopting the player's settings", () => {
  it("lets a guest keep this device's choice, untouched", async () => {
    const device = JSON.stringify({ soundOn: false, soundVolume: 300, animationsOn: false });
    const { useSettings, adoptPlayerSettings } = await load({ "play-settings": device });
    adoptPlayerSettings({ isGuest: true, soundOn: true, soundVolume: 90, animationsOn: true });
    expect(useSettings.getState()).toMatchObject({ soundOn: false, soundVolume: 100, animationsOn: false });
    expect(localStorage.getItem("play-settings")).toBe(device);
  });

  it("lets a signed-in player's record decide, field by field, and keeps a copy on the device", async () => {
    const { useSettings, adoptPlayerSettings } = await load({
      "play-settings": JSON.stringify({ soundOn: false, soundVolume: 30, animationsOn: false }),
    });
    adoptPlayerSettings({ isGuest: false, soundOn: true, soundVolume: 250 as number, animationsOn: true });
    // the record's volume is out of range: the device's stands
    expect(useSettings.getState()).toMatchObject({ soundOn: true, soundVolume: 30, animationsOn: true });
    expect(stored()).toEqual({ soundOn: true, soundVolume: 30, animationsOn: true, resultToastsOn: true, reactionsOn: true });
  });
});

describe("result toasts", () => {
  it("are on by default and follow the device's choice, then a signed-in player's record", async () => {
    const { useSettings, adoptPlayerSettings } = await load({ "play-settings": JSON.stringify({ resultToastsOn: false }) });
    expect(useSettings.getState().resultToastsOn).toBe(false);
    adoptPlayerSettings({ isGuest: false, resultToastsOn: true });
    expect(useSettings.getState().resultToastsOn).toBe(true);
    expect(stored()).toMatchObject({ resultToastsOn: true });
  });

  it("tell a round's result while on, and only its sound while off", async () => {
    const { useSettings } = await load();
    const { useToast } = await import("../src/store/toast");
    const { announceRoundEnd } = await import("../src/features/game-host/round-end");
    const answer = (stake: number, payout: number) =>
      ({ totalStake: stake, totalPayout: payout }) as Parameters<typeof announceRoundEnd>[0];

    announceRoundEnd(answer(10, 25));
    expect(useToast.getState().current).toMatchObject({ title: "You won!", description: "+15 coins" });
    announceRoundEnd(answer(10, 0));
    expect(useToast.getState().current).toMatchObject({ title: "Better luck next time", description: "-10 coins" });

    useToast.setState({ current: null });
    useSettings.getState().set({ resultToastsOn: false });
    announceRoundEnd(answer(10, 25));
    announceRoundEnd(answer(10, 0));
    expect(useToast.getState().current).toBeNull();
    expect(stored()).toMatchObject({ resultToastsOn: false });
  });
});

describe("show reactions", () => {
  it("is on by default and follows the device's choice, then a signed-in player's record", async () => {
    const { useSettings, adoptPlayerSettings } = await load({ "play-settings": JSON.stringify({ reactionsOn: false }) });
    expect(useSettings.getState().reactionsOn).toBe(false);
    adoptPlayerSettings({ isGuest: false, reactionsOn: true });
    expect(useSettings.getState().reactionsOn).toBe(true);
    expect(stored()).toMatchObject({ reactionsOn: true });
  });
});

describe("changing a setting", () => {
  it("stores it on the device and saves a signed-in player's changes in one request once they rest", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { useSettings, useSession } = await load();
    useSession.setState({ player: player({ soundVolume: 100 } as Partial<PlayerRecord>) });
    useSettings.getState().set({ soundVolume: 80 });
    await vi.advanceTimersByTimeAsync(300);
    useSettings.getState().set({ soundVolume: 60 });
    useSettings.getState().set({ animationsOn: false });
    expect(stored()).toEqual({ soundOn: true, soundVolume: 60, animationsOn: false, resultToastsOn: true, reactionsOn: true });
    expect(useSettings.getState()).toMatchObject({ soundVolume: 60, animationsOn: false });
    await vi.advanceTimersByTimeAsync(399);
    expect(fetchCalls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchCalls).toEqual([
      { url: "/api/player/settings", method: "PATCH", body: { playerId: "p1", soundVolume: 60, animationsOn: false } },
    ]);
    await vi.waitFor(() => expect(useSession.getState().player).toMatchObject({ soundVolume: 60, animationsOn: false }));
  });

  it("keeps a guest's change on the device only", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { useSettings, useSession } = await load();
    useSession.setState({ player: player({ isGuest: true }) });
    useSettings.getState().set({ soundOn: false });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchCalls).toHaveLength(0);
    expect(stored()).toMatchObject({ soundOn: false });
  });

  it("keeps the change when the server cannot save it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    fetchStatus = 503;
    const { useSettings, useSession } = await load();
    useSession.setState({ player: player({ soundOn: true } as Partial<PlayerRecord>) });
    useSettings.getState().set({ soundOn: false });
    await vi.advanceTimersByTimeAsync(400);
    await vi.waitFor(() => expect(error).toHaveBeenCalled());
    expect(useSettings.getState().soundOn).toBe(false);
    expect(useSession.getState().player).toMatchObject({ soundOn: true });
    error.mockRestore();
  });

  it("keeps Turbo on this device alone", async () => {
    const { useSettings, useSession } = await load();
    useSession.setState({ player: player({}) });
    useSettings.getState().setTurbo(true);
    expect(localStorage.getItem("turbo")).toBe("on");
    vi.resetModules();
    const again = await load();
    expect(again.useSettings.getState().turbo).toBe(true);
    again.useSettings.getState().setTurbo(false);
    expect(localStorage.getItem("turbo")).toBe("off");
    expect(fetchCalls).toHaveLength(0);
  });
});
