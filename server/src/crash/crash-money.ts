import {
  LEGACY_ROUNDING,
  checkStake,
  crashCashOutPayout,
  isRoundingRule,
  resultWord,
  type CrashBetAnswer,
  type CrashCashOutAnswer,
  type RoundingRule,
} from "@casino/common";
import type { Database } from "../platform/db/database";
import type { Row } from "../platform/db/rows";
import { sqlRows } from "../platform/db/sql";
import { AppError, conflict, insufficientFunds } from "../platform/errors";
import { houseAccount, moveCoins, recordRound, type MoneyRequests, type Replayable } from "../core/ledger/engine/index";

/** The ledger reference of the shared crash room's entries (the single-player game's is "crash"). */
const CRASH_ROOM_REFERENCE = "crash-room";
/**
 * The house's account of the shared room's bets (the game of their rounds): a stake goes to the house
 * when placed, since a bet lost at the bust moves no coins (the room marks it lost), and cash-outs and
 * refunds come from it.
 */
const CRASH_HOUSE = houseAccount("crash");
/**
 * The rule a shared crash room round's cash-outs are paid under, as the round recorded it (rule 2 rounds
 * from the bet's stream keyed by the game hash: crashCashOutPayout); rounds stored before rules were: 1.
 */
const crashRoomRounding = (value: unknown): RoundingRule => {
  const rule = Number(value);
  return isRoundingRule(rule) ? rule : LEGACY_ROUNDING;
};

/**
 * The shared crash room's money. Each call is one money request (player row locked first, idempotent
 * by request id and kind). Request ids the server makes up for a player start with '#', which a
 * client's never can.
 */
/** The crash room's side of the ledger: a bet and a cash-out (ledger.ts names them after the room). */
export interface CrashLedger {
  placeCrashBet: CrashMoney["placeBet"];
  cashOutCrashBet: CrashMoney["cashOut"];
}

export class CrashMoney {
  constructor(
    private readonly db: Database,
    private readonly requests: MoneyRequests,
  ) {}

  /**
   * A bet in the shared crash room, debited now and settled later exactly once (cash-out, bust, or
   * the restart rule). The round's row is read FOR SHARE: the round cannot leave its betting phase
   * while this bet is being written, and a bet that waited for the phase change sees it and is refused.
   */
  placeBet(
    playerId: string,
    requestId: string,
    bet: { roundId: string; amount: number; autoCashOut: number | null },
  ): Promise<Replayable<CrashBetAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "crash-bet", body: bet }, async (ctx) => {
      // The stake rule again, inside the transaction (the room's message schema checked it before).
      checkStake(bet.amount);
      const [round] = await sqlRows<Row<"crash_rounds", "phase" | "game_number">>(
        ctx.em,
        `SELECT phase, game_number FROM crash_rounds WHERE id = $1 FOR SHARE`,
        [bet.roundId],
      );
      if (round?.phase !== "betting") throw new AppError("betting_closed", 409, "Bets are closed for this round");
      if (ctx.player.balance < bet.amount) throw insufficientFunds();
      const placed = await sqlRows(
        ctx.em,
        `INSERT INTO crash_bets (round_id, player_id, request_id, amount, auto_cash_out) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (round_id, player_id) DO NOTHING RETURNING id`,
        [bet.roundId, playerId, requestId, bet.amount, bet.autoCashOut],
      );
      if (placed.length === 0) throw conflict("You already have a bet in this round", "already_bet");
      const balance = moveCoins(ctx, requestId, [
        { delta: -bet.amount, reason: "bet", reference: CRASH_ROOM_REFERENCE, account: CRASH_HOUSE },
      ]);
      return {
        requestId,
        roundId: bet.roundId,
        gameNumber: Number(round.game_number),
        amount: bet.amount,
        autoCashOut: bet.autoCashOut,
        balance,
      };
    });
  }

  /**
   * Cashes a bet out at `cashedOutAt` (hundredths). The guarded update is the last word: the bet must
   * still be in, its round running, and the multiplier at or below the round's crash point, so a bet
   * is paid at most once and never above the bust, whatever the clocks said.
   */
  cashOut(
    playerId: string,
    requestId: string,
    c: { roundId: string; cashedOutAt: number; by: "player" | "auto" },
  ): Promise<Replayable<CrashCashOutAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "crash-cashout", body: c, standingInstruction: c.by === "auto" }, async (ctx) => {
      const [bet] = await sqlRows<
        Row<"crash_bets", "id" | "amount" | "auto_cash_out" | "request_id"> & Row<"crash_rounds", "game_hash" | "rounding">
      >(
        ctx.em,
        `SELECT b.id, b.amount, b.auto_cash_out, b.request_id, r.game_hash, r.rounding
           FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id WHERE b.round_id = $1 AND b.player_id = $2`,
        [c.roundId, playerId],
      );
      if (!bet) throw new AppError("no_bet", 409, "You have no bet in this round");
      const amount = Number(bet.amount);
      const rounding = crashRoomRounding(bet.rounding);
      const { payout } = crashCashOutPayout(rounding, { gameHash: bet.game_hash, playerId, amount, cashedOutAt: c.cashedOutAt });
      const settled = await sqlRows<Row<"crash_rounds", "game_number">>(
        ctx.em,
        `UPDATE crash_bets b SET status = 'cashed_out', cashed_out_at = $2, payout = $3, settled_by = $4, settled_at = now()
           FROM crash_rounds r
          WHERE b.id = $1 AND b.status = 'active' AND r.id = b.round_id AND r.phase = 'running' AND $2 BETWEEN 100 AND r.crash_point
          RETURNING r.game_number`,
        [bet.id, c.cashedOutAt, payout, c.by],
      );
      if (settled.length === 0) throw new AppError("cash_out_refused", 409, "Too late: this bet is no longer in a running round");
      const balance = moveCoins(ctx, requestId, [
        { delta: payout, reason: "payout", reference: CRASH_ROOM_REFERENCE, account: CRASH_HOUSE },
      ]);
      recordRound(ctx.writes, {
        playerId,
        requestId: bet.request_id,
        game: "crash",
        amount,
        totalStake: amount,
        totalPayout: payout,
        seed: null,
        params: {
          roundId: c.roundId,
          gameNumber: Number(settled[0].game_number),
          autoCashOut: bet.auto_cash_out === null ? null : Number(bet.auto_cash_out),
        },
        actions: [{ cashOut: c.cashedOutAt, by: c.by }],
        outcome: { cashedOutAt: c.cashedOutAt },
        rounding,
      });
      return { requestId, roundId: c.roundId, cashedOutAt: c.cashedOutAt, amount, payout, balance };
    });
  }

  /**
   * A bet whose round was cut short, settled as the restart rule decided (`crashRestartPlan` in the
   * room's machine; docs/crash-chain.md): paid at its automatic cash-out (`cashedOutAt`), or its stake
   * refunded (null). A bet already settled is left as it is (null).
   */
  async settleInterrupted(betId: string, cashedOutAt: number | null): Promise<CrashCashOutAnswer | null> {
    const [owner] = await this.db.run((em) =>
      sqlRows<Row<"crash_bets", "player_id">>(em, `SELECT player_id FROM crash_bets WHERE id = $1`, [betId]),
    );
    if (!owner) return null;
    const playerId = owner.player_id;
    const requestId = `#crash-restart:${betId}`;
    const settled = await this.requests.run({ playerId, requestId, kind: "crash-settle", body: { betId } }, async (ctx) => {
      const [bet] = await sqlRows<
        Row<"crash_bets", "round_id" | "request_id" | "amount" | "auto_cash_out" | "status"> &
          Row<"crash_rounds", "game_number" | "game_hash" | "rounding">
      >(
        ctx.em,
        `SELECT b.round_id, b.request_id, b.amount, b.auto_cash_out, b.status, r.game_number, r.game_hash, r.rounding
           FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id WHERE b.id = $1 FOR UPDATE OF b`,
        [betId],
      );
      if (bet.status !== "active") return { settled: null };
      const amount = Number(bet.amount);
      const auto = bet.auto_cash_out === null ? null : Number(bet.auto_cash_out);
      // the rule pays a bet at its own automatic cash-out only
      if (cashedOutAt !== null && cashedOutAt !== auto) throw conflict("A restarted crash bet is paid at its own automatic cash-out only");
      const paid = cashedOutAt !== null;
      const rounding = crashRoomRounding(bet.rounding);
      const payout = paid ? crashCashOutPayout(rounding, { gameHash: bet.game_hash, playerId, amount, cashedOutAt }).payout : amount;
      await sqlRows(
        ctx.em,
        `UPDATE crash_bets SET status = $2, cashed_out_at = $3, payout = $4, settled_by = 'restart', settled_at = now() WHERE id = $1`,
        [betId, paid ? "cashed_out" : "refunded", paid ? auto : null, payout],
      );
      const balance = moveCoins(
        ctx,
        requestId,
        [{ delta: payout, reason: paid ? "payout" : "refund", reference: CRASH_ROOM_REFERENCE, account: CRASH_HOUSE }],
        {
          seen: false,
        },
      );
      recordRound(ctx.writes, {
        playerId,
        requestId: bet.request_id,
        game: "crash",
        amount,
        totalStake: amount,
        totalPayout: payout,
        seed: null,
        params: { roundId: bet.round_id, gameNumber: Number(bet.game_number), autoCashOut: auto },
        actions: [],
        outcome: { restart: paid ? "auto cash-out paid" : "refunded", cashedOutAt: paid ? auto : null },
        rounding,
        result: paid ? resultWord(amount, payout) : "push",
      });
      return { settled: { requestId, roundId: bet.round_id as string, cashedOutAt: paid ? auto! : 100, amount, payout, balance } };
    });
    return settled.settled;
  }
}
