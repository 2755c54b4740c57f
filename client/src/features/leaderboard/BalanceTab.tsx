import { useEffect, useState } from "react";
import { LEADERBOARD_PAGE_SIZE, LEADERBOARD_REFRESH_MS } from "@casino/common/constants";
import { formatCoins } from "@casino/common/format";
import { pageOfRank, shownRange, totalPages } from "@casino/common/pagination";
import type { PlayerRecord } from "@casino/common/api";
import { api, seg } from "../../net/api";
import { usePolling } from "../../net/usePolling";
import { useLeaderboardVersion } from "../../store/leaderboard";
import { Button } from "../../ui/Button";
import { BoardRow } from "./BoardRow";
import { Pagination } from "./Pagination";
import type { BalanceBoard } from "./types";

export const isSelf = (entry: { playerId: string; discordId?: string }, player: PlayerRecord | null) =>
  Boolean(player && (entry.playerId === player.id || (entry.discordId && entry.discordId === player.discordId)));

/** The Balance tab: "Your Position", the page of entries, and the pagination. */
export function BalanceTab({ player, onOwnEntry }: { player: PlayerRecord | null; onOwnEntry(anonymous: boolean | null): void }) {
  const [page, setPage] = useState(1);
  const version = useLeaderboardVersion((s) => s.version);
  const board = usePolling(
    () => api<BalanceBoard>(`/leaderboard?page=${page}&limit=${LEADERBOARD_PAGE_SIZE}`),
    LEADERBOARD_REFRESH_MS,
    [page, version],
  );
  const rank = usePolling(
    async () => (player ? (await api<{ rank: number | null }>(`/player/${seg(player.id)}/rank`)).rank : null),
    LEADERBOARD_REFRESH_MS,
    [player?.id, version],
  );

  const data = board.data;
  const own = data?.entries.find((e) => isSelf(e, player));
  const ownAnonymous = own ? own.anonymousMode : null;
  useEffect(() => onOwnEntry(ownAnonymous), [ownAnonymous, onOwnEntry]);
  const total = data?.total ?? 0;
  const pages = totalPages(total);
  const { from, to } = shownRange(page, total);
  const myRank = typeof rank.data === "number" ? rank.data : null;

  return (
    <div className="space-y-4">
      {myRank !== null && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-primary/40 bg-primary/10 p-3" data-testid="your-position">
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
      {board.loading && !data ? (
        <p className="py-6 text-center text-muted-foreground">Loading leaderboard...</p>
      ) : board.error ? (
        <p className="py-6 text-center text-destructive" role="alert">
          Failed to load leaderboard. Please try again later.
        </p>
      ) : !data || data.entries.length === 0 ? (
        <p className="py-6 text-center text-muted-foreground">No players on the leaderboard yet.</p>
      ) : (
        <>
          <ol className="space-y-1" aria-label="Balance leaderboard">
            {data.entries.map((entry) => (
              <BoardRow key={entry.playerId} entry={entry} self={isSelf(entry, player)} value={formatCoins(entry.balance)} />
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
