import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The theme store over a fake device preference (`matchMedia`): it is read when the module loads, so
 * each test loads the store afresh over the device storage and preference it sets up.
 */
type Theme = typeof import("../src/store/theme");

let prefersDark: boolean;
const listeners = new Set<() => void>();

function fakeMatchMedia(query: string) {
  const wantsDark = query.includes("dark");
  return {
    get matches() {
      return wantsDark ? prefersDark : !prefersDark;
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
}

/** The device's preference changes, as the browser reports it. */
function deviceTurns(scheme: "light" | "dark"): void {
  prefersDark = scheme === "dark";
  for (const listener of listeners) listener();
}

beforeEach(() => {
  vi.resetModules();
  localStorage.clear();
  listeners.clear();
  prefersDark = false;
  vi.stubGlobal("matchMedia", fakeMatchMedia);
  document.documentElement.classList.remove("dark");
});

afterEach(() => vi.unstubAllGlobals());

async function load(device: Record<string, string> = {}): Promise<Theme> {
  for (const [key, value] of Object.entries(device)) localStorage.setItem(key, value);
  return import("../src/store/theme");
}

const pageIsDark = () => document.documentElement.classList.contains("dark");

describe("the theme's mode", () => {
  it("follows the device's preference, live, while the player has chosen none", async () => {
    prefersDark = false;
    const { useTheme } = await load();
    expect(useTheme.getState()).toMatchObject({ mode: "light", modeChosen: false });
    deviceTurns("dark");
    expect(useTheme.getState().mode).toBe("dark");
    expect(pageIsDark()).toBe(true);
    // a colour is no choice of mode, and nothing of the mode is stored
    useTheme.getState().set({ color: "120 44% 69%" });
    deviceTurns("light");
    expect(useTheme.getState()).toMatchObject({ mode: "light", modeChosen: false, color: "120 44% 69%" });
    expect(localStorage.getItem("theme-mode")).toBeNull();
  });

  it("keeps the player's pick whatever the device says, and stores it", async () => {
    const { useTheme } = await load();
    useTheme.getState().set({ mode: "dark" });
    deviceTurns("dark");
    deviceTurns("light");
    expect(useTheme.getState()).toMatchObject({ mode: "dark", modeChosen: true });
    expect(pageIsDark()).toBe(true);
    expect(localStorage.getItem("theme-mode")).toBe("dark");
  });

  it("takes the device's stored pick over its preference", async () => {
    prefersDark = true;
    const { useTheme } = await load({ "theme-mode": "light" });
    expect(useTheme.getState()).toMatchObject({ mode: "light", modeChosen: true });
  });

  it("lets a signed-in player's record decide only once it holds a choice", async () => {
    prefersDark = false;
    const { useTheme, adoptPlayerTheme } = await load();
    adoptPlayerTheme({ isGuest: false, themeMode: "dark", themeModeChosen: false, themeColor: "200 60% 55%" });
    expect(useTheme.getState()).toMatchObject({ mode: "light", modeChosen: false });
    adoptPlayerTheme({ isGuest: false, themeMode: "dark", themeModeChosen: true, themeColor: "200 60% 55%" });
    expect(useTheme.getState()).toMatchObject({ mode: "dark", modeChosen: true });
    deviceTurns("light");
    expect(useTheme.getState().mode).toBe("dark");
  });
});
