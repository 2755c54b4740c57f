import { useEffect } from "react";
import { LEADERBOARD_PAGE_SIZE } from "@casino/common/constants";
import type { KillsEntry, LeaderboardBoard, PlayerRecord, SpeedEntry } from "@casino/common/api";
import type { ScopeParams } from "../../store/leaderboard";
import { BoardRow } from "./BoardRow";
import { isSelf } from "./BalanceTab";
import { LinkBadge } from "./LinkBadge";
import { useLiveBoard } from "./useLiveBoard";

interface RecordTabProps<T extends SpeedEntry | KillsEntry> {
  board: Exclude<LeaderboardBoard, "balance">;
  label: string;
  texts: { loading: string; error: string; empty: string; failure: string };
  value(entry: T): string;
  player: PlayerRecord | null;
  scope: ScopeParams;
}

/** The Speed and Kills tabs: one record per player from a game's leaderboard, live like the balance board. */
export function RecordTab<T extends SpeedEntry | KillsEntry>({ board: name, label, texts, value, player, scope }: RecordTabProps<T>) {
  const board = useLiveBoard<T>(name, scope, "all", 1, LEADERBOARD_PAGE_SIZE);
  useEffect(() => {
    if (board.error) console.error(texts.failure, board.error);
  }, [board.error, texts.failure]);
  const body = board.loading ? (
    <p className="py-6 text-center text-muted-foreground">{texts.loading}</p>
  ) : board.error ? (
    <p className="py-6 text-center text-destructive" role="alert">
      {texts.error}
    </p>
  ) : board.entries.length === 0 ? (
    <p className="py-6 text-center text-muted-foreground">{texts.empty}</p>
  ) : (
    <ol className="space-y-1" aria-label={label}>
      {board.entries.map((entry) => (
        <BoardRow key={entry.playerId} entry={entry} self={isSelf(entry, player)} value={value(entry)} />
      ))}
    </ol>
  );
  return (
    <div className="space-y-3">
      <div className="flex justify-end">
        <LinkBadge link={board.link} />
      </div>
      {body}
    </div>
  );
}
