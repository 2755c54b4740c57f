import { gameDefinition, type GameId } from "@casino/common/catalogue";
import { formatNet } from "@casino/common/format";
import type { TableSession } from "../contract";
import { BetsTable, fromHistory, multiplier, ResultMark, tone, type Row } from "./BetsTable";
import { formatCoins } from "./format";
import { useHistory, type LocalRound } from "./history";

const SHOWN = 10;

const fromLocal = (r: LocalRound): Row => ({
  key: r.requestId,
  game: r.game,
  at: r.at,
  stake: r.stake,
  payout: r.payout,
  result: r.result,
  multiplier: r.multiplier,
  verify: null,
  seeded: true,
});

function useRows(session: TableSession | null | undefined, game: GameId | null) {
  const history = useHistory(session);
  // rounds of games (the daily spins are listed with the wheel)
  const source = session ? history.items.filter((i) => i.kind === "round").map(fromHistory) : history.local.map(fromLocal);
  return { rows: source.filter((r) => game === null || r.game === game).slice(0, SHOWN), history };
}

/** The player's last rounds of this game, from the server's history. */
export function MyBets(props: { game: GameId; session?: TableSession | null }) {
  const { rows, history } = useRows(props.session, props.game);
  return (
    <section
      className="rounded-xl border border-border bg-card p-3 text-xs text-muted-foreground"
      data-testid="my-bets"
      aria-label="My bets"
    >
      <h2 className="mb-2 text-sm font-semibold text-foreground">My bets</h2>
      {history.error && <p className="text-destructive">Could not load your bets: {history.error}</p>}
      {rows.length === 0 ? (
        <p className="text-muted-foreground">{history.loading ? "Loading…" : "No bets on this game yet."}</p>
      ) : (
        <BetsTable rows={rows} />
      )}
    </section>
  );
}

/** The player's own bets across every game, newest first, refreshed after each round. */
export function LiveFeed(props: { session?: TableSession | null }) {
  const { rows } = useRows(props.session, null);
  return (
    <section
      className="rounded-xl border border-border bg-card p-3 text-xs text-muted-foreground"
      data-testid="live-feed"
      aria-label="Your live bets"
    >
      <h2 className="mb-2 flex items-center gap-2 text-sm font-semibold text-foreground">
        <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-positive" aria-hidden /> Your bets, all games
      </h2>
      {rows.length === 0 ? (
        <p className="text-muted-foreground">Your bets appear here as they settle.</p>
      ) : (
        <ul className="flex flex-col">
          {rows.map((r) => (
            <li key={r.key} className="flex justify-between border-t border-border py-1 tabular-nums" data-testid="feed-row">
              <span className="w-28 truncate">{gameDefinition(r.game)?.title ?? r.game}</span>
              <span className="w-16 text-right">{formatCoins(r.stake)}</span>
              <span className={`w-16 text-right ${tone(r)}`}>
                <ResultMark row={r} />
                {multiplier(r)}
              </span>
              <span className={`w-16 text-right ${tone(r)}`} data-testid="feed-row-net">
                {formatNet(r.payout - r.stake)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
