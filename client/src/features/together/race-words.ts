import { ANONYMOUS_NAME } from "@casino/common/constants";
import { gameDefinition, type GameId } from "@casino/common/catalogue";
import { formatCoins, formatMultiplier, formatNet } from "@casino/common/format";
import type { RaceRow, RaceView } from "@casino/common/together";

/** The final (or live) order in one line: "1. Bob +120 · 2. Alice -30". */
export const raceOrderText = (rows: readonly RaceRow[], nameOf: (row: RaceRow) => string = (r) => r.username): string =>
  rows.map((r) => `${r.rank}. ${r.hidden ? ANONYMOUS_NAME : nameOf(r)} ${formatNet(r.net)}`).join(" · ");

/** Time left as m:ss (0:00 once passed). */
export function countdownText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The message of a race's share link (Discord allows 1,000 characters; the order is cut to fit). */
export function raceShareMessage(race: RaceView): string {
  const winner = race.rows.find((r) => r.winner);
  const head = winner
    ? `${winner.hidden ? ANONYMOUS_NAME : winner.username} won our ${race.minutes}-minute race!`
    : `Our ${race.minutes}-minute race is over.`;
  const text = `${head} ${raceOrderText(race.rows)}. Virtual coins only.`;
  return text.length <= 1000 ? text : `${text.slice(0, 997)}...`;
}

/** The message of a big win's share link: "I won 2,000 coins (20.00×) at Limbo! Virtual coins only." */
export function bigWinShareMessage(game: string, payout: number, multiplier: number | null): string {
  const title = gameDefinition(game as GameId)?.title ?? game;
  return `I won ${formatCoins(payout)} coins${multiplier === null ? "" : ` (${formatMultiplier(multiplier)})`} at ${title}! Virtual coins only.`;
}
