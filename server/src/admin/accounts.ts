import type { PlayerStatus } from "@casino/common";
import { sqlRows } from "../platform/db/sql";
import { AppError } from "../platform/errors";
import { recordAction } from "./admin-actions";
import { announceAccountChange, rebuildBoards, type AdminContext } from "./context";
import { resolvePlayer } from "./player-lookup";

export interface StatusChange {
  playerId: string;
  from: PlayerStatus;
  to: PlayerStatus;
  /** False when the account already had that status (nothing was written). */
  changed: boolean;
  /** The rebuilt boards (null without Redis, or when nothing changed). */
  boards: { players: number; ms: number } | null;
}

/**
 * Suspends an account (`to` = "suspended") or restores it ("active"). Under the player's row lock, the
 * lock every money request takes first: a bet in flight commits before the suspension or is refused
 * after it, never half. Then every server hears it (open connections close, sessions are refused), and
 * the boards are rebuilt without the player, or with them again.
 */
export async function setAccountStatus(ctx: AdminContext, ref: string, to: "suspended" | "active", reason: string): Promise<StatusChange> {
  const result = await ctx.db.transaction(async (em) => {
    const player = await resolvePlayer(em, ref);
    const [row] = await sqlRows<{ status: PlayerStatus }>(em, `SELECT status FROM players WHERE id = $1 FOR NO KEY UPDATE`, [player.id]);
    const from = row!.status;
    if (from === "erased") throw new AppError("account_erased", 409, "This account was erased: it can be neither suspended nor restored");
    if (from === to) return { playerId: player.id, from, to, changed: false };
    await sqlRows(em, `UPDATE players SET status = $2 WHERE id = $1`, [player.id, to]);
    await recordAction(em, { operator: ctx.operator, action: to === "suspended" ? "suspend" : "restore", playerId: player.id, reason });
    return { playerId: player.id, from, to, changed: true };
  });
  if (!result.changed) return { ...result, boards: null };
  await announceAccountChange(ctx, result.playerId, to);
  return { ...result, boards: await rebuildBoards(ctx) };
}
