import { ANONYMOUS_NAME } from "@casino/common/constants";
import type { ReactNode } from "react";
import { Medal } from "lucide-react";
import { Avatar } from "../../ui/Avatar";
import { cn } from "../../ui/cn";
import type { BoardPlayer } from "./types";

const MEDALS = ["text-gold", "text-silver", "text-bronze"] as const;
const MEDAL_NAMES = ["Gold medal", "Silver medal", "Bronze medal"] as const;
const TOP_ROWS = ["bg-gold/10", "bg-silver/10", "bg-bronze/10"] as const;

/**
 * One leaderboard row: rank (medals for the top three), avatar, name with tag, and the value. An
 * anonymous player shows as a blurred "Anonymous" to others and by name to themselves, marked "(You)".
 */
export function BoardRow({ entry, self, value }: { entry: BoardPlayer; self: boolean; value: ReactNode }) {
  const hidden = entry.anonymousMode && !self;
  const top = entry.rank >= 1 && entry.rank <= 3 ? entry.rank - 1 : -1;
  return (
    <li
      data-testid="leaderboard-row"
      aria-current={self ? "true" : undefined}
      className={cn(
        "flex items-center gap-3 rounded-xl px-3 py-2.5",
        top >= 0 && TOP_ROWS[top],
        self && "ring-2 ring-primary bg-primary/10",
      )}
    >
      <span className="grid w-9 shrink-0 place-items-center text-sm font-bold tabular-nums">
        {top >= 0 ? <Medal className={cn("h-6 w-6", MEDALS[top])} aria-label={MEDAL_NAMES[top]} role="img" /> : `#${entry.rank}`}
      </span>
      <Avatar
        src={hidden ? null : entry.avatarUrl}
        name={hidden ? ANONYMOUS_NAME : entry.username}
        seed={hidden ? null : entry.face}
        className="h-8 w-8"
      />
      <span className="min-w-0 flex-1">
        <span className="flex min-w-0 items-center gap-1.5">
          <span className={cn("truncate font-semibold", hidden && "select-none blur-[3px]")}>
            {hidden ? ANONYMOUS_NAME : entry.username}
          </span>
          {self && <span className="shrink-0 text-xs font-bold text-primary-ink">(You)</span>}
        </span>
        {entry.activeTag?.name && !hidden && <span className="block truncate text-xs text-muted-foreground">{entry.activeTag.name}</span>}
      </span>
      <span className="shrink-0 font-mono text-sm font-bold tabular-nums">{value}</span>
    </li>
  );
}
