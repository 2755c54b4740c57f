import { resultWord, type RoundingRule } from "@casino/common";
import { insufficientFunds } from "../../../platform/errors";
import type { SeedRow } from "./reads";
import { ledgerEntryId, type LedgerReason } from "./reasons";
import type { MoneyContext } from "./requests";
import type { WriteBatch } from "./writes";

/** One ledger entry of a request: coins in (positive) or out, why, and from or to which account. */
export interface Movement {
  delta: number;
  reason: LedgerReason;
  reference: string | null;
  /** The counter-party (`houseAccount`, `holdingAccount`, `MINT`): where the coins came from, or went to. */
  account: string;
  /** The seed pair and nonce an outcome paid by this entry was drawn from (daily spins: their history row). */
  drawnFrom?: { seedId: string; nonce: number };
}

export interface MoveOptions {
  /** The seed whose nonce this request used: advanced in the same statement. */
  seedId?: string;
  /** More `column = value` of the player's row. */
  set?: (w: WriteBatch) => string;
  /** False for work the server does on its own (the player was not seen). */
  seen?: boolean;
}

/**
 * The one way a product moves coins. Queues the player's balance update and the ledger entries of
 * `movements` (ids `<base>#<reason>`), refusing a debit the locked balance cannot cover. Answers the
 * new balance (also kept in the context, so a second call in the same request starts from it). The
 * request's commit announces the new balance (`announcements.ts`): a product never tells it itself.
 */
export function moveCoins(ctx: MoneyContext, base: string, movements: Movement[], options: MoveOptions = {}): number {
  const w = ctx.writes;
  const net = movements.reduce((sum, m) => sum + m.delta, 0);
  const debits = movements.filter((m) => m.delta < 0).reduce((sum, m) => sum - m.delta, 0);
  if (ctx.player.balance < debits) throw insufficientFunds();
  if (options.seedId) w.nonce(options.seedId);
  w.move(ctx.player.id, net, options.seen !== false);
  if (options.set) w.add(`UPDATE players SET ${options.set(w)} WHERE id = ${w.p(ctx.player.id)}`);
  let after = ctx.player.balance;
  for (const m of movements) {
    after += m.delta;
    w.entry({
      playerId: ctx.player.id,
      delta: m.delta,
      balanceAfter: after,
      reason: m.reason,
      reference: m.reference,
      account: m.account,
      requestId: ledgerEntryId(base, m.reason),
      seedId: m.drawnFrom?.seedId ?? null,
      nonce: m.drawnFrom?.nonce ?? null,
    });
  }
  ctx.player.balance += net;
  ctx.moved = true;
  return ctx.player.balance;
}

/**
 * Posts what a round that has ended held (`amount`, its stakes less what was paid back from the holding)
 * from its holding to the house: a transfer between two accounts that are not players, queued with the
 * request's other rows, under an id made once per round (`<round>#post`).
 */
export function postHolding(w: WriteBatch, t: { from: string; to: string; amount: number; round: string; reference: string }): void {
  if (t.amount <= 0) return;
  w.add(
    `INSERT INTO account_transfers (from_account, to_account, amount, reason, reference, request_id)
     VALUES (${w.p(t.from)}, ${w.p(t.to)}, ${w.p(t.amount)}, 'post', ${w.p(t.reference)}, ${w.p(ledgerEntryId(t.round, "post"))})`,
  );
}

/** The player did something that moves no coins (a seed rotation): a move of 0, which marks them seen. */
export function markSeen(ctx: MoneyContext): void {
  ctx.writes.move(ctx.player.id, 0, true);
}

/** A finished round's record (`game_sessions`, which the `game_plays` view reads), written with the request's other rows. */
export interface RoundRecord {
  playerId: string;
  requestId: string;
  game: string;
  /** the opening bet (before any double, split, raise or chip added later) */
  amount: number;
  totalStake: number;
  totalPayout: number;
  seed: SeedRow | null;
  params: unknown;
  actions: unknown[];
  outcome: unknown;
  /** the payout rounding rule the round was played under */
  rounding: RoundingRule;
  /** `win`, `lose` or `push`: by default from the stake and the payout */
  result?: string;
}

/** Queues a finished round's record. */
export function recordRound(w: WriteBatch, r: RoundRecord): void {
  w.session({
    playerId: r.playerId,
    gameType: r.game,
    amount: r.amount,
    betAmount: r.totalStake,
    result: r.result ?? resultWord(r.totalStake, r.totalPayout),
    payout: r.totalPayout,
    requestId: r.requestId,
    seedId: r.seed?.id ?? null,
    nonce: r.seed?.nonce ?? null,
    params: JSON.stringify(r.params ?? {}),
    actions: JSON.stringify(r.actions),
    outcome: JSON.stringify(r.outcome),
    rounding: r.rounding,
  });
}
