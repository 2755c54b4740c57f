import { useState } from "react";
import { SmilePlus } from "lucide-react";
import { REACTIONS, REACTION_NAMES, reactionTargetKey, type ReactionTarget } from "@casino/common/reactions";
import { cn } from "../../ui/cn";
import { useReducedMotion } from "../../ui/useReducedMotion";
import { useReactions } from "../../store/reactions";
import { useSession } from "../../store/session";
import { useSettings } from "../../store/settings";

/**
 * Reactions (common/reactions.ts): the picker that sends one on a target, and the overlay that floats
 * the instance's reactions over it. Both show only inside an activity instance, with the together room
 * connected, and while the player keeps "Show reactions" on.
 */
export function useReactionsOn(): boolean {
  const inInstance = useSession((s) => s.discord?.instanceJoined === true);
  const on = useSettings((s) => s.reactionsOn);
  const connected = useReactions((s) => s.sender !== null);
  return inInstance && on && connected;
}

/** A spread of places across the target, the same for a reaction on every screen. */
const placeOf = (id: string) => {
  let sum = 0;
  for (const ch of id) sum = (sum * 31 + ch.charCodeAt(0)) % 997;
  return 10 + (sum % 70);
};

/**
 * The reactions on `target` now, floating up over it for a few seconds (its parent is `relative`). With
 * animations off (the setting or the system's reduced motion) they stand still for the same time.
 */
export function ReactionOverlay({ target }: { target: ReactionTarget }) {
  const key = reactionTargetKey(target);
  const shown = useReactions((s) => s.shown);
  const reduced = useReducedMotion();
  const here = shown.filter((r) => reactionTargetKey(r.target) === key);
  if (here.length === 0) return null;
  return (
    <div className="pointer-events-none absolute inset-0 z-10" data-testid="reactions" data-target={key}>
      {here.map((r) => (
        <span
          key={r.id}
          role="img"
          aria-label={`${r.username}: ${REACTIONS[r.reaction].label}`}
          title={r.username}
          data-testid="reaction"
          data-reaction={r.reaction}
          data-from={r.username}
          data-motion={reduced ? "off" : "on"}
          className={cn("absolute bottom-1 text-2xl leading-none drop-shadow", !reduced && "animate-reaction-float")}
          style={{ left: `${placeOf(r.id)}%` }}
        >
          {REACTIONS[r.reaction].emoji}
        </span>
      ))}
    </div>
  );
}

/** A button that opens the six reactions; choosing one sends it on `target` (`label` names the target for screen readers). */
export function ReactionPicker({ target, label, className }: { target: ReactionTarget; label: string; className?: string }) {
  const on = useReactionsOn();
  const sender = useReactions((s) => s.sender);
  const [open, setOpen] = useState(false);
  if (!on) return null;
  return (
    <div
      className={cn("flex flex-wrap items-center justify-center gap-1", className)}
      data-testid="reaction-picker"
      data-target={reactionTargetKey(target)}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-label={`React to ${label}`}
        title={`React to ${label}`}
        data-testid="reaction-open"
        onClick={() => setOpen((o) => !o)}
        className="grid h-8 min-w-8 place-items-center rounded-lg text-muted-foreground hover:bg-muted hover:text-foreground"
      >
        <SmilePlus className="h-4 w-4" aria-hidden />
      </button>
      {open &&
        REACTION_NAMES.map((name) => (
          <button
            key={name}
            type="button"
            aria-label={`${REACTIONS[name].label} on ${label}`}
            title={REACTIONS[name].label}
            data-testid={`react-${name}`}
            onClick={() => {
              sender?.(name, target);
              setOpen(false);
            }}
            className="grid h-8 w-8 place-items-center rounded-lg text-lg leading-none hover:bg-muted"
          >
            {REACTIONS[name].emoji}
          </button>
        ))}
    </div>
  );
}
