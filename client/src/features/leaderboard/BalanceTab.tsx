import { useEffect, useState } from "react";
import * as RadioGroup from "@radix-ui/react-radio-group";
import { LEADERBOARD_PAGE_SIZE } from "@casino/common/constants";
import { formatCoins } from "@casino/common/format";
import { pageOfRank, shownRange, totalPages } from "@casino/common/pagination";
import type { LeaderboardWindow, PlayerRecord } from "@casino/common/api";
import { useLeaderboard, type ScopeParams } from "../../store/leaderboard";
import { Button } from "../../ui/Button";
import { cn } from "../../ui/cn";
import { BoardRow } from "./BoardRow";
import { LinkBadge } from "./LinkBadge";
import { Pagination } from "./Pagination";
import { useLiveBoard } from "./useLiveBoard";
import type { BalanceEntry } from "./types";

export const isSelf = (entry: { playerId: string; discordId?: string }, player: PlayerRecord | null) =>
  Boolean(player && (entry.playerId === player.id || (entry.discordId && entry.discordId === player.discordId)));

const WINDOWS: { value: LeaderboardWindow; label: string }[] = [
  { value: "day", label: "Today" },
  { value: "week", label: "This week" },
  { value: "all", label: "All-time" },
];

/** Net winnings with their sign ("+1,250", "-300"). */
const signed = (n: number) => `${n > 0 ? "+" : n < 0 ? "-" : ""}${formatCoins(Math.abs(n))}`;

/** The Balance tab: the period switch, "Your Position", the page of entries, and the pagination. */
export function BalanceTab({
  player,
  scope,
  onOwnEntry,
}: {
  player: PlayerRecord | null;
  scope: ScopeParams;
  onOwnEntry(anonymous: boolean | null): void;
}) {
  const window = useLeaderboard((s) => s.window);
  const setWindow = useLeaderboard((s) => s.setWindow);
  // Another board starts again at its first page.
  const boardKey = `${window}|${scope.scope}`;
  const [chosen, setChosen] = useState({ boardKey, page: 1 });
  const page = chosen.boardKey === boardKey ? chosen.page : 1;
  const setPage = (p: number) => setChosen({ boardKey, page: p });
  const board = useLiveBoard<BalanceEntry>("balance", scope, window, page, LEADERBOARD_PAGE_SIZE);

  const own = board.entries.find((e) => isSelf(e, player));
  const ownAnonymous = own ? own.anonymousMode : null;
  useEffect(() => onOwnEntry(ownAnonymous), [ownAnonymous, onOwnEntry]);
  const total = board.total;
  const pages = totalPages(total);
  const { from, to } = shownRange(board.page, total);
  const myRank = board.me?.rank ?? null;
  const netBoard = window !== "all";

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <RadioGroup.Root
          value={window}
          onValueChange={(v) => setWindow(v as LeaderboardWindow)}
          aria-label="Period"
          orientation="horizontal"
          className="flex gap-1 rounded-xl bg-muted/60 p-1"
        >
          {WINDOWS.map((w) => (
            <RadioGroup.Item
              key={w.value}
              value={w.value}
              className={cn(
                "min-h-8 rounded-lg px-3 py-1 text-sm font-semibold text-muted-foreground",
                window === w.value && "bg-card text-foreground shadow",
              )}
            >
              {w.label}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
        <LinkBadge link={board.link} />
      </div>
      {netBoard && (
        <p className="text-sm text-muted-foreground">
          Net winnings from games {window === "day" ? "since 00:00 UTC today" : "since Monday 00:00 UTC"}.
        </p>
      )}
      {myRank !== null && (
        <div
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-primary/40 bg-primary/10 p-3"
          data-testid="your-position"
        >
          <div>
            <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">Your Position</p>
            <p className="text-lg font-bold">
              Rank #{formatCoins(myRank)} of {formatCoins(total)}
            </p>
          </div>
          {myRank > LEADERBOARD_PAGE_SIZE && (
            <Button size="sm" variant="outline" onClick={() => setPage(pageOfRank(myRank))}>
              Jump to My Position
            </Button>
          )}
        </div>
      )}
      {board.loading ? (
        <p className="py-6 text-center text-muted-foreground">Loading leaderboard...</p>
      ) : board.error ? (
        <p className="py-6 text-center text-destructive" role="alert">
          Failed to load leaderboard. Please try again later.
        </p>
      ) : board.entries.length === 0 ? (
        <p className="py-6 text-center text-muted-foreground">No players on the leaderboard yet.</p>
      ) : (
        <>
          <ol className="space-y-1" aria-label="Balance leaderboard">
            {board.entries.map((entry) => (
              <BoardRow
                key={entry.playerId}
                entry={entry}
                self={isSelf(entry, player)}
                value={netBoard ? signed(entry.net ?? 0) : formatCoins(entry.balance)}
              />
            ))}
          </ol>
          <Pagination page={Math.min(page, Math.max(1, pages))} pages={pages} onPage={setPage} />
          <p className="text-center text-sm text-muted-foreground" data-testid="showing">
            Showing {formatCoins(from)} - {formatCoins(to)} of {formatCoins(total)} players
          </p>
        </>
      )}
    </div>
  );
}
