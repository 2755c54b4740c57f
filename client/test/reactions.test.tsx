import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { REACTION_SHOW_MS, type ReactionPush } from "@casino/common/reactions";
import { ReactionOverlay, ReactionPicker } from "../src/features/together/Reactions";
import { useReactions } from "../src/store/reactions";
import { useSession } from "../src/store/session";
import { useSettings } from "../src/store/settings";

/**
 * Reactions float over their target for a few seconds: moving with animations on, standing still with
 * animations off or the system's reduced motion; none at all, and no sound, once the player turns
 * "Show reactions" off. Another member's reaction clicks when sound is on; one's own does not.
 */
let systemReduces = false;
const played: string[] = [];
const settings = useSettings.getState();
const session = useSession.getState();

beforeEach(() => {
  vi.useFakeTimers();
  systemReduces = false;
  played.length = 0;
  vi.stubGlobal("matchMedia", (query: string) => ({
    get matches() {
      return query.includes("reduce") && systemReduces;
    },
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  vi.stubGlobal(
    "Audio",
    class {
      volume = 1;
      constructor(readonly src: string) {}
      play() {
        played.push(this.src);
        return Promise.resolve();
      }
    },
  );
  useSettings.setState({ ...settings, animationsOn: true, reactionsOn: true, soundOn: true, soundVolume: 100 });
  useSession.setState({ ...session, discord: { instanceJoined: true } as never });
  useReactions.setState({ shown: [], sender: null });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useSession.setState(session, true);
});

let n = 0;
const push = (fields: Partial<ReactionPush> = {}): ReactionPush => ({
  id: `reaction-${++n}`,
  reaction: "fire",
  target: { kind: "crash-round" },
  username: "Bob",
  discordId: "100",
  self: false,
  ...fields,
});

const floating = () => screen.queryAllByTestId("reaction");

describe("reactions", () => {
  it("float over their own target only, with a click, and leave after their time", () => {
    render(
      <>
        <ReactionOverlay target={{ kind: "crash-round" }} />
        <ReactionOverlay target={{ kind: "seat", seat: 2 }} />
      </>,
    );
    act(() => useReactions.getState().receive(push()));
    act(() => useReactions.getState().receive(push({ reaction: "clap", target: { kind: "seat", seat: 3 } })));
    expect(floating()).toHaveLength(1);
    const [fire] = floating();
    expect(fire!.textContent).toBe("🔥");
    expect(fire!.getAttribute("aria-label")).toBe("Bob: Fire");
    expect(fire!.dataset.motion).toBe("on");
    expect(fire!.className).toContain("animate-reaction-float");
    expect(played).toEqual(["/sounds/click.wav", "/sounds/click.wav"]);

    act(() => useReactions.getState().receive(push({ self: true, username: "Me" })));
    expect(played).toHaveLength(2);
    act(() => vi.advanceTimersByTime(REACTION_SHOW_MS));
    expect(floating()).toHaveLength(0);
    expect(useReactions.getState().shown).toEqual([]);
  });

  it("stand still with animations off, and with the system's reduced motion", () => {
    useSettings.setState({ animationsOn: false });
    const { unmount } = render(<ReactionOverlay target={{ kind: "crash-round" }} />);
    act(() => useReactions.getState().receive(push()));
    expect(floating()[0]!.dataset.motion).toBe("off");
    expect(floating()[0]!.className).not.toContain("animate-reaction-float");
    unmount();

    useSettings.setState({ animationsOn: true });
    systemReduces = true;
    render(<ReactionOverlay target={{ kind: "crash-round" }} />);
    expect(floating()[0]!.dataset.motion).toBe("off");
  });

  it("show nothing, sound nothing and offer no picker once Show reactions is off", () => {
    useReactions.setState({ sender: vi.fn() });
    render(
      <>
        <ReactionOverlay target={{ kind: "crash-round" }} />
        <ReactionPicker target={{ kind: "crash-round" }} label="the crash round" />
      </>,
    );
    act(() => useReactions.getState().receive(push()));
    expect(floating()).toHaveLength(1);
    expect(screen.queryByTestId("reaction-picker")).not.toBeNull();

    // Turning it off clears what floats now, and mutes what comes next.
    act(() => useSettings.getState().set({ reactionsOn: false }));
    expect(floating()).toHaveLength(0);
    act(() => useReactions.getState().receive(push()));
    expect(floating()).toHaveLength(0);
    expect(played).toHaveLength(1);
    expect(screen.queryByTestId("reaction-picker")).toBeNull();
    expect(JSON.parse(localStorage.getItem("play-settings")!).reactionsOn).toBe(false);
  });

  it("send one of the six on the picker's target through the together room", () => {
    const sender = vi.fn();
    useReactions.setState({ sender });
    render(<ReactionPicker target={{ kind: "seat", seat: 4 }} label="Bob, seat 4" />);
    expect(screen.queryByTestId("react-clap")).toBeNull();
    // Escape closes it unsent.
    fireEvent.click(screen.getByRole("button", { name: "React to Bob, seat 4" }));
    fireEvent.keyDown(screen.getByTestId("react-clap"), { key: "Escape" });
    expect(screen.queryByTestId("react-clap")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "React to Bob, seat 4" }));
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual(["", "👏", "🔥", "😂", "😮", "😭", "🎉"]);
    fireEvent.click(screen.getByRole("button", { name: "Party on Bob, seat 4" }));
    expect(sender.mock.calls).toEqual([["party", { kind: "seat", seat: 4 }]]);
    expect(screen.queryByTestId("react-clap")).toBeNull();
  });

  it("offer no picker outside an activity instance", () => {
    useReactions.setState({ sender: vi.fn() });
    useSession.setState({ discord: null });
    render(<ReactionPicker target={{ kind: "crash-round" }} label="the crash round" />);
    expect(screen.queryByTestId("reaction-picker")).toBeNull();
  });
});
