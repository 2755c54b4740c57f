import { HOLDEM_BUY_IN } from "@casino/common/holdem-table";
import type { Database } from "../platform/db/database";
import type { Row } from "../platform/db/rows";
import { sqlRows } from "../platform/db/sql";
import { AppError, conflict, insufficientFunds } from "../platform/errors";
import { holdingAccount, moveCoins, type MoneyRequests, type Replayable } from "../core/ledger/engine/index";

/** The ledger reference of the Hold'em tables' entries. */
export const HOLDEM_REFERENCE = "holdem-table";

/**
 * A Hold'em table's holding account: every stack at the table is there, from the buy-in to the
 * cash-out. Its balance is the table's buy-ins less its cash-outs, which the audit checks against the
 * stacks of the seats still at the table (the house has no account here: it takes nothing).
 */
export const holdemTableAccount = (tableId: string): string => holdingAccount(`holdem-${tableId}`);

export interface HoldemBuyIn {
  seatId: string;
  seat: number;
  stack: number;
  balance: number;
}

export interface HoldemCashOut {
  playerId: string;
  amount: number;
  balance: number;
}

/** A seat's stack after a hand, by its row. */
export interface HoldemStackUpdate {
  seatId: string;
  stack: number;
}

/**
 * A seat dealt into a finished hand, as the players' history keeps it: what it put in (the uncalled part
 * given back not counted) and what it won over all pots. Its net is `won - putIn`.
 */
export interface HoldemHandPlayer {
  seat: number;
  playerId: string;
  putIn: number;
  won: number;
}

/** What names a finished hand in the history and the feeds: its row, its number at the table, its commitment. */
export interface HoldemHandRef {
  handId: string;
  handNumber: number;
  serverSeedHash: string;
}

/**
 * The Hold'em tables' money (docs/architecture/holdem.md, "Money"), on the money engine: a buy-in moves
 * coins from the player's balance to the table's holding account and seats the player in the same
 * transaction; a cash-out moves the stack back and frees the seat, once; a hand's result moves chips
 * between the stacks of its seats, once, and never changes what the table holds; it writes each
 * seat's part of the hand for its player's history and announces it after the commit (the feeds).
 */
export class HoldemMoney {
  constructor(
    private readonly db: Database,
    private readonly requests: MoneyRequests,
  ) {}

  /** Sits the player at `seat` with `amount` coins from the balance, idempotent by the request id. */
  buyIn(playerId: string, requestId: string, bet: { tableId: string; seat: number; amount: number }): Promise<Replayable<HoldemBuyIn>> {
    return this.requests.run({ playerId, requestId, kind: "holdem-buy-in", body: bet }, async (ctx) => {
      // The table's range again, inside the transaction (the message schema checked it before).
      if (!Number.isSafeInteger(bet.amount) || bet.amount < HOLDEM_BUY_IN.min || bet.amount > HOLDEM_BUY_IN.max)
        throw new AppError("invalid_buy_in", 400, `The buy-in is from ${HOLDEM_BUY_IN.min} to ${HOLDEM_BUY_IN.max} coins`);
      const [table] = await sqlRows<Row<"holdem_tables", "closed_at">>(
        ctx.em,
        `SELECT closed_at FROM holdem_tables WHERE id = $1 FOR SHARE`,
        [bet.tableId],
      );
      if (!table || table.closed_at !== null) throw new AppError("table_closed", 409, "This table is closed");
      if (ctx.player.balance < bet.amount) throw insufficientFunds();
      const [seated] = await sqlRows<Row<"holdem_seats", "id">>(
        ctx.em,
        `INSERT INTO holdem_seats (table_id, seat, player_id, request_id, buy_in, stack) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT DO NOTHING RETURNING id`,
        [bet.tableId, bet.seat, playerId, requestId, bet.amount],
      );
      if (!seated) throw conflict("That seat is taken, or you already sit at this table", "seat_taken");
      const balance = moveCoins(ctx, requestId, [
        { delta: -bet.amount, reason: "buy_in", reference: HOLDEM_REFERENCE, account: holdemTableAccount(bet.tableId) },
      ]);
      return { seatId: seated.id, seat: bet.seat, stack: bet.amount, balance };
    });
  }

  /**
   * The seat's stack back to its player's balance and the seat freed, once (a seat already cashed out
   * answers null). The stack is the one written after the last hand over: a hand cut short never
   * changed it.
   */
  async cashOut(seatId: string): Promise<HoldemCashOut | null> {
    const [row] = await this.db.run((em) =>
      sqlRows<Row<"holdem_seats", "player_id">>(em, `SELECT player_id FROM holdem_seats WHERE id = $1`, [seatId]),
    );
    if (!row) return null;
    const playerId = row.player_id;
    const requestId = `#holdem-cash-out:${seatId}`;
    const done = await this.requests.run({ playerId, requestId, kind: "holdem-cash-out", body: { seatId } }, async (ctx) => {
      const [seat] = await sqlRows<Row<"holdem_seats", "table_id" | "stack" | "left_at">>(
        ctx.em,
        `SELECT table_id, stack, left_at FROM holdem_seats WHERE id = $1 FOR UPDATE`,
        [seatId],
      );
      if (!seat || seat.left_at !== null) return { cashedOut: null };
      const amount = Number(seat.stack);
      await sqlRows(ctx.em, `UPDATE holdem_seats SET left_at = now(), cashed_out = $2 WHERE id = $1`, [seatId, amount]);
      const balance = moveCoins(
        ctx,
        requestId,
        amount > 0 ? [{ delta: amount, reason: "cash_out", reference: HOLDEM_REFERENCE, account: holdemTableAccount(seat.table_id) }] : [],
        { seen: false },
      );
      return { cashedOut: { playerId, amount, balance } };
    });
    return done.cashedOut;
  }

  /**
   * A finished hand: its record and its seats' new stacks, in one transaction, once (a hand no longer
   * being played answers false and changes nothing). The stacks must hold the same chips as before: a
   * hand moves chips between seats, never in or out of the table.
   */
  settleHand(
    ref: HoldemHandRef,
    stacks: readonly HoldemStackUpdate[],
    players: readonly HoldemHandPlayer[],
    record: { actions: unknown; result: unknown },
  ): Promise<boolean> {
    const handId = ref.handId;
    return this.requests.transaction(async (em, announce) => {
      const [hand] = await sqlRows<Row<"holdem_hands", "id">>(
        em,
        `UPDATE holdem_hands SET phase = 'complete', actions = $2::jsonb, result = $3::jsonb, ended_at = now()
          WHERE id = $1 AND phase = 'playing' RETURNING id`,
        [handId, JSON.stringify(record.actions), JSON.stringify(record.result)],
      );
      if (!hand) return false;
      const ids = stacks.map((s) => s.seatId);
      const before = await sqlRows<Row<"holdem_seats", "id" | "stack">>(
        em,
        `SELECT id, stack FROM holdem_seats WHERE id = ANY($1::uuid[]) AND left_at IS NULL ORDER BY id FOR UPDATE`,
        [ids],
      );
      const total = (list: readonly { stack: number | string }[]) => list.reduce((sum, s) => sum + Number(s.stack), 0);
      if (before.length !== stacks.length || total(before) !== total(stacks))
        throw new Error(`holdem hand ${handId}: the stacks after the hand do not hold the chips of the stacks before it`);
      await sqlRows(
        em,
        `UPDATE holdem_seats s SET stack = u.stack FROM unnest($1::uuid[], $2::bigint[]) AS u(id, stack) WHERE s.id = u.id`,
        [ids, stacks.map((s) => s.stack)],
      );
      // Each seat's part of the hand, for its player's history (written with the result, so never without it).
      await sqlRows(
        em,
        `INSERT INTO holdem_hand_players (hand_id, seat, player_id, put_in, won)
         SELECT $1, u.seat, u.player_id, u.put_in, u.won FROM unnest($2::int[], $3::uuid[], $4::bigint[], $5::bigint[]) AS u(seat, player_id, put_in, won)`,
        [handId, players.map((p) => p.seat), players.map((p) => p.playerId), players.map((p) => p.putIn), players.map((p) => p.won)],
      );
      // Told after the commit: each player's row of the instance's feed (no card in it).
      for (const p of players)
        announce({ type: "holdem-settled", playerId: p.playerId, hand: { ...ref, seat: p.seat, putIn: p.putIn, won: p.won } });
      return true;
    });
  }
}
