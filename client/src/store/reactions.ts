import { create } from "zustand";
import { REACTION_SHOW_MS, type ReactionName, type ReactionPush, type ReactionTarget } from "@casino/common/reactions";
import { playSound } from "../ui/sounds";
import { useSettings } from "./settings";

/** At most this many reactions float at once (the oldest goes first): a busy instance never covers the screen. */
export const REACTIONS_SHOWN_MAX = 12;

interface ReactionsState {
  /** The reactions floating now, oldest first; each leaves REACTION_SHOW_MS after it came. */
  shown: ReactionPush[];
  /** Sends a reaction through the together room (set while its connection is up; null without one). */
  sender: ((reaction: ReactionName, target: ReactionTarget) => void) | null;
  /** A `reaction` push: shown unless the player turned reactions off (then nothing of it shows or sounds). */
  receive(push: ReactionPush): void;
}

export const useReactions = create<ReactionsState>()((set) => ({
  shown: [],
  sender: null,
  receive: (push) => {
    if (!useSettings.getState().reactionsOn) return;
    set((s) => ({ shown: [...s.shown, push].slice(-REACTIONS_SHOWN_MAX) }));
    // Another member's reaction clicks softly (when sound is on); one's own makes no sound.
    if (!push.self) playSound("click");
    setTimeout(() => set((s) => ({ shown: s.shown.filter((r) => r.id !== push.id) })), REACTION_SHOW_MS);
  },
}));

// Muting reactions clears the ones floating now.
useSettings.subscribe((s, before) => {
  if (!s.reactionsOn && before.reactionsOn) useReactions.setState({ shown: [] });
});
