import { LEADERBOARD_PAGE_SIZE, LEADERBOARD_REFRESH_MS } from "@casino/common/constants";
import type { PlayerRecord } from "@casino/common/api";
import { api } from "../../net/api";
import { usePolling } from "../../net/usePolling";
import { useLeaderboardVersion } from "../../store/leaderboard";
import { BoardRow } from "./BoardRow";
import { isSelf } from "./BalanceTab";
import { entriesOf, type BoardPlayer } from "./types";

interface RecordTabProps<T extends BoardPlayer> {
  path: string;
  label: string;
  texts: { loading: string; error: string; empty: string; failure: string };
  value(entry: T): string;
  player: PlayerRecord | null;
}

/** The Speed and Kills tabs: one record per player from a game's leaderboard, polled every 5 s. */
export function RecordTab<T extends BoardPlayer>({ path, label, texts, value, player }: RecordTabProps<T>) {
  const version = useLeaderboardVersion((s) => s.version);
  const board = usePolling(
    async () => {
      try {
        return entriesOf(await api<T[] | { entries?: T[] }>(`${path}?limit=${LEADERBOARD_PAGE_SIZE}`));
      } catch (error) {
        console.error(texts.failure, error);
        throw error;
      }
    },
    LEADERBOARD_REFRESH_MS,
    [path, version],
  );
  if (board.loading && !board.data) return <p className="py-6 text-center text-muted-foreground">{texts.loading}</p>;
  if (board.error)
    return (
      <p className="py-6 text-center text-destructive" role="alert">
        {texts.error}
      </p>
    );
  if (!board.data || board.data.length === 0) return <p className="py-6 text-center text-muted-foreground">{texts.empty}</p>;
  return (
    <ol className="space-y-1" aria-label={label}>
      {board.data.map((entry) => (
        <BoardRow key={entry.playerId} entry={entry} self={isSelf(entry, player)} value={value(entry)} />
      ))}
    </ol>
  );
}
