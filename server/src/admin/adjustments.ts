import type { Database } from "../platform/db/database";
import { AppError } from "../platform/errors";
import { MINT, MoneyRequests, moveCoins, type Announcements, type Replayable } from "../core/ledger/engine/index";

/** Coins an operator adds to a balance, or takes back from it. */
export type AdjustmentKind = "grant" | "claw_back";

/** The most coins one adjustment moves: a typo of a few zeros is refused, not applied. */
export const MAX_ADJUSTMENT = 1_000_000_000;

export interface Adjustment {
  playerId: string;
  /** The operator's request id: the same id again answers the first adjustment and moves nothing. */
  requestId: string;
  kind: AdjustmentKind;
  amount: number;
  /** Why, in the operator's words (kept in `admin_actions`, never in the ledger). */
  reason: string;
  /** Who. */
  operator: string;
  /** A claw-back larger than the balance takes the whole balance instead of being refused. */
  upToBalance?: boolean;
}

export interface AdjustmentAnswer {
  requestId: string;
  kind: AdjustmentKind;
  /** The amount asked for. */
  amount: number;
  /** The coins that moved, signed (a partial claw-back moves less than asked). */
  delta: number;
  balance: number;
}

/** The ledger id of an operator's request (also the base of its ledger entry's id): never a player's. */
export const adjustmentRequestId = (requestId: string): string => `#admin:${requestId}`;

/**
 * Operators' grants and claw-backs. Each is a money request like a bet (the player's row locked first,
 * one transaction, idempotent by request id and contents): the balance and a ledger entry with reason
 * `admin_adjustment` (its reference says which kind) move together, and the audit row (`admin_actions`:
 * who, why, how much) is written in the same transaction. A claw-back never takes more than the
 * balance: the locked balance decides, so it cannot race a bet into a negative balance.
 */
export class Adjustments {
  private readonly requests: MoneyRequests;

  /** `bus`: where the commit of each adjustment is announced (the player's open connections hear the new balance from it). */
  constructor(db: Database, bus: Announcements) {
    this.requests = new MoneyRequests(db, bus);
  }

  adjust(a: Adjustment): Promise<Replayable<AdjustmentAnswer>> {
    if (!Number.isSafeInteger(a.amount) || a.amount < 1 || a.amount > MAX_ADJUSTMENT) {
      return Promise.reject(new AppError("invalid_amount", 400, `The amount must be a whole number of coins from 1 to ${MAX_ADJUSTMENT}`));
    }
    const base = adjustmentRequestId(a.requestId);
    const body = { kind: a.kind, amount: a.amount, reason: a.reason, operator: a.operator, upToBalance: a.upToBalance === true };
    return this.requests.run({ playerId: a.playerId, requestId: base, kind: "adjustment", body }, async (ctx) => {
      const balance = ctx.player.balance;
      let delta = a.amount;
      if (a.kind === "claw_back") {
        if (balance === 0) throw new AppError("nothing_to_claw_back", 409, "The balance is 0: there is nothing to claw back");
        if (a.amount > balance && !a.upToBalance) {
          throw new AppError(
            "insufficient_funds",
            409,
            `The balance is ${balance}: a claw-back of ${a.amount} would make it negative (ask for at most the balance, or take up to it)`,
            { balance },
          );
        }
        delta = -Math.min(a.amount, balance);
      }
      const account = a.kind === "claw_back" ? MINT.adminClawBack : MINT.adminGrant;
      moveCoins(ctx, base, [{ delta, reason: "admin_adjustment", reference: a.kind, account }], { seen: false });
      const w = ctx.writes;
      w.add(
        `INSERT INTO admin_actions (operator, action, player_id, reason, request_id, amount, details)
         VALUES (${w.p(a.operator)}, ${w.p(a.kind)}, ${w.p(ctx.player.id)}, ${w.p(a.reason)}, ${w.p(a.requestId)}, ${w.p(Math.abs(delta))},
                 ${w.p(JSON.stringify({ asked: a.amount, balanceBefore: balance, balanceAfter: balance + delta }))})`,
      );
      return { requestId: a.requestId, kind: a.kind, amount: a.amount, delta, balance: ctx.player.balance };
    });
  }
}
