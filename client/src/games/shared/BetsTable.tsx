import { ArrowDown, ArrowUp, Equal } from "lucide-react";
import { Link } from "wouter";
import { gameTitleOf } from "@casino/common/catalogue";
import { roundMultiplier } from "@casino/common/games/odds";
import { formatNet } from "@casino/common/format";
import { drawnFromSeeds, verifyHref, type HistoryItem } from "./api";
import { formatCoins, formatMultiplier, formatTime } from "./format";

/** One of the player's rounds as the bet tables show it ("My bets", the live feed, the profile). */
export interface Row {
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

/** A row of the server's history. */
export const fromHistory = (i: HistoryItem): Row => ({
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
/**
 * The bet's own multiplier (the one it was placed at, or the one its round reached before rounding); what
 * was paid and the round's net figure are columns of their own. A round whose record keeps no multiplier
 * (a card game's hands, chips on a layout) shows none: its paid amount says what it paid.
 */
export const multiplier = (r: Row) => (r.multiplier === null ? "—" : formatMultiplier(r.multiplier));
export const tone = (r: Row) => (r.result === "win" ? "font-semibold text-positive" : "text-muted-foreground");

/** The row's result as an icon with its word for screen readers: colour is never the only sign. */
export function ResultMark({ row }: { row: Row }) {
  const [Icon, word] = row.result === "win" ? [ArrowUp, "won"] : row.result === "push" ? [Equal, "push"] : [ArrowDown, "lost"];
  return (
    <>
      <Icon className="mr-0.5 inline h-3 w-3 align-[-1px]" aria-hidden />
      <span className="sr-only">{word} </span>
    </>
  );
}

const formatDateTime = (iso: string): string =>
  new Date(iso).toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** A game's title ("Daily spin" for the wheel's spins, "Hold'em table" for a hand there). */
export const gameTitle = (game: string): string => (game === DAILY_SPIN ? "Daily spin" : gameTitleOf(game));
const DAILY_SPIN = "daily-spin";

/**
 * The rows as a table: time (with the game when `showGame`), bet, multiplier, paid, net, and the link to
 * the verifier or why there is none yet.
 */
export function BetsTable({ rows, showGame = false }: { rows: Row[]; showGame?: boolean }) {
  // across games (the profile's whole history) the rows span days: each says its date too
  const when = showGame ? formatDateTime : formatTime;
  // the wider table spaces its columns, and on a phone leaves the multiplier out (the net tells the result)
  const wide = showGame ? "[&_td+td]:pl-2 [&_th+th]:pl-2" : "";
  const multiplierCell = showGame ? "hidden sm:table-cell" : "";
  return (
    <table className={`w-full tabular-nums ${wide}`}>
      <thead>
        <tr className="text-left text-muted-foreground">
          <th className="py-1 font-medium">Time</th>
          {showGame && <th className="py-1 font-medium">Game</th>}
          <th className="py-1 text-right font-medium">Bet</th>
          <th className={`py-1 text-right font-medium ${multiplierCell}`}>Multiplier</th>
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
            data-game={r.game}
          >
            <td className="whitespace-nowrap py-1" title={r.at}>
              {when(r.at)}
            </td>
            {showGame && (
              <td className="max-w-28 truncate py-1" data-testid="my-bet-game">
                {gameTitle(r.game)}
              </td>
            )}
            <td className="py-1 text-right">{formatCoins(r.stake)}</td>
            <td className={`whitespace-nowrap py-1 text-right ${tone(r)} ${multiplierCell}`}>
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
  );
}

/** The row's link to the verifier, or why there is none yet. */
export function FairCell({ row }: { row: Row }) {
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
