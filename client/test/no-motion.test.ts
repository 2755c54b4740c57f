import { afterEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import { MotionGlobalConfig } from "motion/react";
import { useNoMotionClass } from "../src/ui/useReducedMotion";
import { useInstantAnimations } from "../src/games/shared/fast-reveal";
import { useSettings } from "../src/store/settings";

/**
 * Animations off (the player's switch, or the system's reduced motion) make every animation of the
 * page instant: the CSS ones through the `no-motion` class, motion's through its global switch, so a
 * state shows as soon as it is rendered. A table that showed its results at once, closing, leaves them so.
 */
const root = () => document.documentElement;

afterEach(() => {
  useSettings.setState({ animationsOn: true });
  root().classList.remove("no-motion", "fast-reveal");
  MotionGlobalConfig.skipAnimations = false;
});

describe("animations off", () => {
  it("make the CSS and motion's animations instant, and bring them back when turned on", async () => {
    renderHook(() => useNoMotionClass());
    expect(root().classList.contains("no-motion")).toBe(false);
    expect(MotionGlobalConfig.skipAnimations).toBeFalsy();
    act(() => useSettings.setState({ animationsOn: false }));
    expect(root().classList.contains("no-motion")).toBe(true);
    // motion is loaded for it (outside the lobby's entry): its switch is set once it has arrived
    await vi.waitFor(() => expect(MotionGlobalConfig.skipAnimations).toBe(true));
    act(() => useSettings.setState({ animationsOn: true }));
    expect(root().classList.contains("no-motion")).toBe(false);
    await vi.waitFor(() => expect(MotionGlobalConfig.skipAnimations).toBe(false));
  });

  it("stay instant when a table that showed results at once closes; with animations on, its closing brings them back", async () => {
    renderHook(() => useNoMotionClass());
    act(() => useSettings.setState({ animationsOn: false }));
    await vi.waitFor(() => expect(MotionGlobalConfig.skipAnimations).toBe(true));
    const table = renderHook(({ on }) => useInstantAnimations(on), { initialProps: { on: true } });
    expect(root().classList.contains("fast-reveal")).toBe(true);
    table.unmount();
    expect(root().classList.contains("fast-reveal")).toBe(false);
    expect(MotionGlobalConfig.skipAnimations).toBe(true);

    // a table showing results at once, open while animations are turned back on: instant until it closes
    const turbo = renderHook(({ on }) => useInstantAnimations(on), { initialProps: { on: true } });
    act(() => useSettings.setState({ animationsOn: true }));
    expect(root().classList.contains("no-motion")).toBe(false);
    // once the hook's own load of motion has answered (the module is loaded: its promise settles first)
    await import("motion/react");
    await Promise.resolve();
    expect(MotionGlobalConfig.skipAnimations).toBe(true);
    turbo.unmount();
    expect(MotionGlobalConfig.skipAnimations).toBe(false);
  });
});
