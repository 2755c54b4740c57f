import type { EntityManager } from "typeorm";
import type { AdminAction } from "../platform/db/entities/index";
import { sqlRows } from "../platform/db/sql";
import { AppError } from "../platform/errors";

export type AdminActionKind = AdminAction["action"];

/** The most characters a reason holds (the column's CHECK). */
export const MAX_REASON_LENGTH = 500;

/** A reason an operator must give: not empty, at most MAX_REASON_LENGTH characters. */
export function requireReason(reason: string | undefined): string {
  const text = reason?.trim() ?? "";
  if (text.length === 0) throw new AppError("reason_required", 400, 'Say why with --reason "...": it is kept with the change');
  if (text.length > MAX_REASON_LENGTH) throw new AppError("reason_too_long", 400, `A reason holds at most ${MAX_REASON_LENGTH} characters`);
  return text;
}

/** Writes who did what to whom and why, in the transaction `em` of the change itself. */
export async function recordAction(
  em: EntityManager,
  action: { operator: string; action: AdminActionKind; playerId: string | null; reason: string; details?: unknown },
): Promise<number> {
  const [row] = await sqlRows<{ id: string }>(
    em,
    `INSERT INTO admin_actions (operator, action, player_id, reason, details) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [action.operator, action.action, action.playerId, action.reason, action.details === undefined ? null : JSON.stringify(action.details)],
  );
  return Number(row!.id);
}

export interface ActionView {
  id: number;
  at: string;
  operator: string;
  action: AdminActionKind;
  reason: string;
  requestId: string | null;
  amount: number | null;
  details: unknown;
}

/** What operators did to a player, newest first. */
export async function actionsOn(em: EntityManager, playerId: string, limit: number | null = null): Promise<ActionView[]> {
  const rows = await sqlRows<Record<string, unknown>>(
    em,
    `SELECT id, created_at, operator, action, reason, request_id, amount, details FROM admin_actions WHERE player_id = $1 ORDER BY id DESC LIMIT $2`,
    [playerId, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    at: new Date(r.created_at as string).toISOString(),
    operator: r.operator as string,
    action: r.action as AdminActionKind,
    reason: r.reason as string,
    requestId: (r.request_id as string | null) ?? null,
    amount: r.amount === null ? null : Number(r.amount),
    details: r.details ?? null,
  }));
}
