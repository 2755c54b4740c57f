import { checkStake, type RoundingRule } from "@casino/common";
import type { Row } from "../platform/db/rows";
import { sqlRows } from "../platform/db/sql";
import type { Database } from "../platform/db/database";
import type { SeatSettlement, TableActionDone, TableBetPlaced, TableLedger } from "./table-store";
import { AppError, conflict, insufficientFunds } from "../platform/errors";
import {
  holdingAccount,
  houseAccount,
  moveCoins,
  postHolding,
  recordRound,
  type MoneyRequests,
  type Replayable,
} from "../core/ledger/engine/index";

/** The ledger reference of the shared table's entries (the solo game's is "blackjack"). */
export const TABLE_REFERENCE = "blackjack-table";
/** Where a seat's stakes wait until the seat is settled (then posted to the house) or refunded. */
const TABLE_HOLDING = holdingAccount(TABLE_REFERENCE);
/** The house's account of the table's rounds (the game of their sessions). */
const TABLE_HOUSE = houseAccount("blackjack");

/**
 * The shared blackjack table's money, a product on the money engine (`engine/`): each seat's opening bet, its insurance, doubles and splits, and its
 * payout, each a money request like every other bet (the player's row locked first, idempotent by request
 * id and kind, committed with the group). A seat's round is one game session of `blackjack` (its bet, the
 * whole stake, the payout, the seat's actions and hands, and the table, shoe, round and seat), written
 * when the seat is settled, so the history, boards, tags, stats and feeds see it as any round.
 *
 * The round's record (`table_rounds.actions`) is extended in the same transaction as the coins an
 * action stakes, guarded by its length: the record and the money never disagree, whatever stops when.
 */
export class TableMoney implements TableLedger {
  constructor(
    private readonly db: Database,
    private readonly requests: MoneyRequests,
  ) {}

  /**
   * A seat's opening bet, debited now and settled later exactly once (the round's settlement, or the
   * restart rule). The round's row is read FOR SHARE: the deal waits for a bet being written, and a bet
   * that waited for the deal sees betting closed and is refused.
   */
  placeTableBet(
    playerId: string,
    requestId: string,
    bet: { roundId: string; seat: number; amount: number },
  ): Promise<Replayable<TableBetPlaced>> {
    return this.requests.run({ playerId, requestId, kind: "table-bet", body: bet }, async (ctx) => {
      // The stake rule again, inside the transaction (the table's message schema checked it before).
      checkStake(bet.amount);
      // One round trip: the round read FOR SHARE and the bet inserted only while it takes bets and the
      // player can pay; the refusals are then told apart in the same order as ever.
      const enough = ctx.player.balance >= bet.amount;
      const [row] = await sqlRows<Row<"table_rounds", "phase"> & { id: string | null }>(
        ctx.em,
        `WITH round AS (SELECT phase FROM table_rounds WHERE id = $1 FOR SHARE),
              placed AS (
                INSERT INTO table_bets (round_id, seat, player_id, request_id, amount, staked)
                SELECT $1, $2, $3, $4, $5, $5 FROM round WHERE round.phase = 'betting' AND $6::boolean
                ON CONFLICT DO NOTHING RETURNING id)
         SELECT round.phase, (SELECT id FROM placed) AS id FROM round`,
        [bet.roundId, bet.seat, playerId, requestId, bet.amount, enough],
      );
      if (row?.phase !== "betting") throw new AppError("betting_closed", 409, "Bets are closed for this round");
      if (!enough) throw insufficientFunds();
      const placed = row.id === null ? undefined : { id: row.id };
      if (!placed) throw conflict("You already have a bet in this round", "already_bet");
      const balance = moveCoins(ctx, requestId, [
        { delta: -bet.amount, reason: "bet", reference: TABLE_REFERENCE, account: TABLE_HOLDING },
      ]);
      return { requestId, roundId: bet.roundId, betId: placed.id, seat: bet.seat, amount: bet.amount, balance };
    });
  }

  /**
   * A seated player's action, appended to the round's record as action number `index` (refused if the
   * record has moved on), with the coins it stakes (insurance, a double or a split) debited together.
   */
  tableAction(
    playerId: string,
    requestId: string,
    step: { roundId: string; seat: number; index: number; action: unknown; stake: number },
  ): Promise<Replayable<TableActionDone>> {
    const body = { roundId: step.roundId, seat: step.seat, action: step.action };
    return this.requests.run({ playerId, requestId, kind: "table-act", body }, async (ctx) => {
      // One round trip: the round locked with its record's length, and the seat's active bet with it.
      const [round] = await sqlRows<Row<"table_rounds", "phase"> & { length: number; bet_id: string | null }>(
        ctx.em,
        `SELECT r.phase, jsonb_array_length(r.actions) AS length, b.id AS bet_id
           FROM table_rounds r
           LEFT JOIN table_bets b ON b.round_id = r.id AND b.seat = $2 AND b.player_id = $3 AND b.status = 'active'
          WHERE r.id = $1 FOR UPDATE OF r`,
        [step.roundId, step.seat, playerId],
      );
      if (round?.phase !== "playing") throw new AppError("no_turn", 409, "No seat is to act now");
      if (Number(round.length) !== step.index) throw new AppError("turn_over", 409, "The table has moved on");
      const bet = round.bet_id === null ? undefined : { id: round.bet_id };
      if (!bet) throw new AppError("not_your_turn", 409, "You have no bet in this round");
      const balance = moveCoins(
        ctx,
        requestId,
        step.stake > 0 ? [{ delta: -step.stake, reason: "bet", reference: TABLE_REFERENCE, account: TABLE_HOLDING }] : [],
      );
      const w = ctx.writes;
      if (step.stake > 0) w.add(`UPDATE table_bets SET staked = staked + ${w.p(step.stake)} WHERE id = ${w.p(bet.id)}`);
      w.add(
        `UPDATE table_rounds SET actions = actions || ${w.p(JSON.stringify([{ seat: step.seat, action: step.action }]))}::jsonb WHERE id = ${w.p(step.roundId)}`,
      );
      return { requestId, roundId: step.roundId, seat: step.seat, stake: step.stake, balance };
    });
  }

  /**
   * Pays a seat's settled round (its payout, stakes included) and writes its game session, once: a bet
   * already settled is left as it is (null). The stake recorded must be the one the engine settled.
   */
  async settleTableBet(betId: string, settlement: SeatSettlement, by: "table" | "restart") {
    const playerId = await this.ownerOf(betId);
    if (!playerId) return null;
    const requestId = `#table-settle:${betId}`;
    const done = await this.requests.run({ playerId, requestId, kind: "table-settle", body: { betId } }, async (ctx) => {
      const bet = await this.lockBet(ctx.em, betId);
      if (bet.status !== "active") return { settled: null };
      if (Number(bet.staked) !== settlement.staked)
        throw new Error(`table bet ${betId}: staked ${bet.staked} recorded, ${settlement.staked} settled`);
      // Written with the request's other writes (the bet is locked above): no round trip of its own.
      ctx.writes.add(
        `UPDATE table_bets SET status = 'settled', payout = ${ctx.writes.p(settlement.payout)}, settled_at = now() WHERE id = ${ctx.writes.p(betId)}`,
      );
      const balance = moveCoins(
        ctx,
        requestId,
        settlement.payout > 0 ? [{ delta: settlement.payout, reason: "payout", reference: TABLE_REFERENCE, account: TABLE_HOUSE }] : [],
        { seen: false },
      );
      postHolding(ctx.writes, {
        from: TABLE_HOLDING,
        to: TABLE_HOUSE,
        amount: settlement.staked,
        round: `#table-bet:${betId}`,
        reference: TABLE_REFERENCE,
      });
      const outcome = by === "restart" ? { ...(settlement.outcome as object), restart: "stood for" } : settlement.outcome;
      recordRound(ctx.writes, {
        playerId,
        requestId: bet.request_id,
        game: "blackjack",
        amount: Number(bet.amount),
        totalStake: settlement.staked,
        totalPayout: settlement.payout,
        seed: null,
        params: paramsOf(bet),
        actions: settlement.actions,
        outcome,
        rounding: bet.rounding as RoundingRule,
      });
      // The live feeds: the seat's round, named by the shoe's commitment and the round (and the seat).
      ctx.announced.push({
        type: "table-settled",
        playerId,
        seat: {
          stake: settlement.staked,
          payout: settlement.payout,
          shoeHash: bet.server_seed_hash,
          round: Number(bet.round),
          seat: bet.seat,
        },
      });
      return { settled: { playerId, balance } };
    });
    return done.settled;
  }

  /** The restart rule for a bet whose round was never dealt: its stake comes back, once. */
  async refundTableBet(betId: string) {
    const playerId = await this.ownerOf(betId);
    if (!playerId) return null;
    const requestId = `#table-refund:${betId}`;
    const done = await this.requests.run({ playerId, requestId, kind: "table-settle", body: { betId, refund: true } }, async (ctx) => {
      const bet = await this.lockBet(ctx.em, betId);
      if (bet.status !== "active") return { settled: null };
      const staked = Number(bet.staked);
      await sqlRows(ctx.em, `UPDATE table_bets SET status = 'refunded', payout = $2, settled_at = now() WHERE id = $1`, [betId, staked]);
      const balance = moveCoins(ctx, requestId, [{ delta: staked, reason: "refund", reference: TABLE_REFERENCE, account: TABLE_HOLDING }], {
        seen: false,
      });
      recordRound(ctx.writes, {
        playerId,
        requestId: bet.request_id,
        game: "blackjack",
        amount: Number(bet.amount),
        totalStake: staked,
        totalPayout: staked,
        seed: null,
        params: paramsOf(bet),
        actions: [],
        outcome: { voided: true, restart: "refunded: the round was never dealt" },
        rounding: bet.rounding as RoundingRule,
      });
      return { settled: { playerId, balance } };
    });
    return done.settled;
  }

  private async ownerOf(betId: string): Promise<string | null> {
    const [row] = await this.db.run((em) =>
      sqlRows<Row<"table_bets", "player_id">>(em, `SELECT player_id FROM table_bets WHERE id = $1`, [betId]),
    );
    return row?.player_id ?? null;
  }

  private async lockBet(em: Parameters<typeof sqlRows>[0], betId: string) {
    const [bet] = await sqlRows<
      Row<"table_bets", "id" | "seat" | "request_id" | "amount" | "staked" | "status" | "round_id"> &
        Row<"table_rounds", "round" | "shoe_id"> &
        Row<"table_shoes", "table_id" | "rounding" | "server_seed_hash">
    >(
      em,
      `SELECT b.id, b.seat, b.request_id, b.amount, b.staked, b.status, b.round_id, r.round, r.shoe_id, s.table_id, s.rounding, s.server_seed_hash
         FROM table_bets b JOIN table_rounds r ON r.id = b.round_id JOIN table_shoes s ON s.id = r.shoe_id
        WHERE b.id = $1 FOR UPDATE OF b`,
      [betId],
    );
    return bet!;
  }
}

const paramsOf = (
  bet: Row<"table_bets", "seat" | "round_id"> & Row<"table_rounds", "round" | "shoe_id"> & Row<"table_shoes", "table_id">,
) => ({
  table: bet.table_id,
  shoeId: bet.shoe_id,
  round: Number(bet.round),
  roundId: bet.round_id,
  seat: Number(bet.seat),
});
