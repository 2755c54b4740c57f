import { formatCoins, formatMultiplier, formatNet } from "@casino/common/format";
import type { FeedFolded, FeedRow } from "@casino/common/together";

/**
 * A feed row's figures, as "My bets" tells a round: the bet's own multiplier as the server sent it (the
 * history's `roundMultiplier`; none where the round has no single one: a card game, a crash bet lost at
 * the bust), then apart and labelled what was paid, and the net figure (`formatNet`). Never paid ÷
 * stake. A skill round has no stake: its reward, as a net figure. A Hold'em hand: what the seat won and its net.
 */
export function feedRowFigures(row: FeedRow): { multiplier: string | null; paid: string | null; net: string } {
  if (row.kind === "skill") return { multiplier: null, paid: null, net: formatNet(row.payout) };
  // A Hold'em hand: what the player's seat won from the pots, against what it put in.
  if (row.kind === "holdem") return { multiplier: null, paid: `won ${formatCoins(row.payout)}`, net: formatNet(row.payout - row.stake) };
  return {
    multiplier: row.multiplier === null ? null : formatMultiplier(row.multiplier),
    paid: `paid ${formatCoins(row.payout)}`,
    net: formatNet(row.payout - row.stake),
  };
}

/** The words of rounds folded into one entry: how many, and why they are not listed. */
export const foldedText = (entry: FeedFolded, what: { one: string; many: string }): string =>
  `+${formatCoins(entry.rounds)} more ${entry.rounds === 1 ? what.one : what.many}: too many at once to list one by one`;
