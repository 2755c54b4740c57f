import { useState } from "react";
import { Coins, Gamepad2, Gift } from "lucide-react";
import type { Category } from "@casino/common/catalogue";
import { STARTING_BALANCE } from "@casino/common/constants";
import { formatCoins } from "@casino/common/format";
import { storage, STORAGE_KEYS } from "../../platform/storage";
import { useLobby } from "../../store/lobby";

/** The category a new player is pointed to: one tap a round, nothing to learn first. */
const START_WITH: Category = "Quick Games";

const done = () => storage.get(STORAGE_KEYS.firstRunGuideDone) === "true";

/** A link-sized button inside the guide's lines, still 32 px tall for a finger. */
const INLINE =
  "inline-flex min-h-8 items-center rounded-md px-1.5 font-semibold text-primary-ink underline underline-offset-2 hover:bg-muted";

/**
 * The lobby's first-run guide: what coins are, the daily spin, where to start. A card in the page's
 * flow, never a dialog: it is there from the lobby's first render (read from this device's storage
 * before the first paint), so it moves nothing after, and covers nothing. "Got it" closes it for good
 * on this device (local storage, like the guest notice and the favourites: a player on a second device
 * sees it once there too).
 */
export function FirstRunGuide() {
  const [open, setOpen] = useState(() => !done());
  const setTab = useLobby((s) => s.setTab);
  if (!open) return null;
  const close = () => {
    storage.set(STORAGE_KEYS.firstRunGuideDone, "true");
    setOpen(false);
  };
  return (
    <section
      aria-labelledby="first-run-heading"
      data-testid="first-run-guide"
      className="mb-4 rounded-xl border border-border bg-card p-2.5 pl-3 sm:max-w-2xl"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="first-run-heading" className="text-sm font-bold">
          New here?
        </h2>
        <button
          type="button"
          onClick={close}
          data-testid="first-run-done"
          className="min-h-8 rounded-md bg-muted px-3 text-xs font-semibold hover:bg-border"
        >
          Got it
        </button>
      </div>
      <ul className="mt-1 space-y-0.5 text-xs text-muted-foreground">
        <li className="flex items-center gap-2">
          <Coins className="h-4 w-4 shrink-0 text-gold-ink" aria-hidden />
          <span>Coins are play money: {formatCoins(STARTING_BALANCE)} to start, never bought or cashed out.</span>
        </li>
        <li className="flex items-center gap-2">
          <Gift className="h-4 w-4 shrink-0 text-primary-ink" aria-hidden />
          <span>
            Free coins every day on the
            <button type="button" className={INLINE} onClick={() => setTab("daily")} data-testid="first-run-spin">
              Daily Spin
            </button>
          </span>
        </li>
        <li className="flex items-center gap-2">
          <Gamepad2 className="h-4 w-4 shrink-0 text-primary-ink" aria-hidden />
          <span>
            One tap a round: start with the
            <button
              type="button"
              className={INLINE}
              onClick={() => document.getElementById(`category-${START_WITH}`)?.scrollIntoView({ block: "start" })}
              data-testid="first-run-start"
            >
              {START_WITH}
            </button>
          </span>
        </li>
      </ul>
    </section>
  );
}
