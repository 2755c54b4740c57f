import { ArrowDown, ArrowUp, Equal } from "lucide-react";
import { Link } from "wouter";
import { gameDefinition, type GameId } from "@casino/common/catalogue";
import { roundMultiplier } from "@casino/common/games/odds";
import type { TableSession } from "../contract";
import { drawnFromSeeds, verifyHref, type HistoryItem } from "./api";
import { formatNet } from "@casino/common/format";
import { formatCoins, formatMultiplier, formatTime } from "./format";
import { useHistory, type LocalRound } from "./history";

const SHOWN = 10;

interface Row {
  key: string;
  game: string;
  at: string;
  stake: number;
  payout: number;
  result: "win" | "lose" | "push";
  /** the bet's multiplier before rounding (never paid ÷ stake); null where the record does not keep one */
  multiplier: number | null;
  verify: string | null;
  /** drawn from the player's seeds: verifiable once they rotate (false for the shared crash room's chain) */
  seeded: boolean;
}

const fromHistory = (i: HistoryItem): Row => ({
  key: i.id,
  game: i.gameType,
  at: i.createdAt,
  stake: i.betAmount,
  payout: i.payout,
  result: i.result,
  multiplier: roundMultiplier({ game: i.gameType, params: i.params, outcome: i.outcome, payout: i.payout }),
  verify: verifyHref(i),
  seeded: drawnFromSeeds(i),
});
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

/**
 * The bet's own multiplier (the one it was placed at, or the one its round reached before rounding); what
 * was paid and the round's net figure are columns of their own. A round whose record keeps no multiplier
 * (a card game's hands, chips on a layout) shows none: its paid amount says what it paid.
 */
const multiplier = (r: Row) => (r.multiplier === null ? "—" : formatMultiplier(r.multiplier));
const tone = (r: Row) => (r.result === "win" ? "font-semibold text-positive" : "text-muted-foreground");

/** The row's result as an icon with its word for screen readers: colour is never the only sign. */
function ResultMark({ row }: { row: Row }) {
  const [Icon, word] = row.result === "win" ? [ArrowUp, "won"] : row.result === "push" ? [Equal, "push"] : [ArrowDown, "lost"];
  return (
    <>
      <Icon className="mr-0.5 inline h-3 w-3 align-[-1px]" aria-hidden />
      <span className="sr-only">{word} </span>
    </>
  );
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
        <table className="w-full tabular-nums">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th className="py-1 font-medium">Time</th>
              <th className="py-1 text-right font-medium">Bet</th>
              <th className="py-1 text-right font-medium">Multiplier</th>
              <th className="py-1 text-right font-medium">Paid</th>
              <th className="py-1 text-right font-medium">Net</th>
              <th className="py-1 text-right font-medium">Fair</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.key}
                className="border-t border-border"
                data-testid="my-bet-row"
                data-stake={r.stake}
                data-payout={r.payout}
                data-multiplier={r.multiplier ?? undefined}
              >
                <td className="py-1">{formatTime(r.at)}</td>
                <td className="py-1 text-right">{formatCoins(r.stake)}</td>
                <td className={`py-1 text-right ${tone(r)}`}>
                  <ResultMark row={r} />
                  {multiplier(r)}
                </td>
                <td className="py-1 text-right" data-testid="my-bet-paid">
                  {formatCoins(r.payout)}
                </td>
                <td className={`py-1 text-right ${tone(r)}`} data-testid="my-bet-net">
                  {formatNet(r.payout - r.stake)}
                </td>
                <td className="py-1 text-right">
                  <FairCell row={r} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The row's link to the verifier, or why there is none yet. */
function FairCell({ row }: { row: Row }) {
  if (row.verify) {
    return (
      <Link href={row.verify} className="text-primary-ink underline" data-testid="my-bet-verify">
        Verify
      </Link>
    );
  }
  if (!row.seeded) return <span className="text-muted-foreground">hash chain</span>;
  return (
    <span
      className="text-muted-foreground"
      data-testid="my-bet-unrevealed"
      title="This round's server seed is still active: rotate your seeds (Fairness) to reveal it and verify the round"
    >
      not yet revealed
    </span>
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
