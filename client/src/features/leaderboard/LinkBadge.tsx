import { cn } from "../../ui/cn";
import type { BoardLink } from "./useLiveBoard";

const TEXT: Record<BoardLink, string> = {
  connecting: "Connecting…",
  live: "Live",
  polling: "Updates every 5 s",
};

/** Whether the board is pushed live by the server or polled while the live connection is down. */
export function LinkBadge({ link }: { link: BoardLink }) {
  return (
    <span data-testid="leaderboard-link" data-link={link} className="flex items-center gap-1.5 text-xs font-semibold text-muted-foreground">
      <span
        aria-hidden
        className={cn(
          "h-2 w-2 rounded-full",
          link === "live" ? "bg-green-500" : link === "polling" ? "bg-amber-500" : "bg-muted-foreground/50",
        )}
      />
      {TEXT[link]}
    </span>
  );
}
