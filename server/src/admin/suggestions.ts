import type { Database } from "../platform/db/database";
import type { Suggestion } from "../platform/db/entities/index";
import { sqlRows } from "../platform/db/sql";
import { AppError } from "../platform/errors";
import { recordAction } from "./admin-actions";

export type SuggestionStatus = Suggestion["status"];
export const SUGGESTION_STATUSES: readonly SuggestionStatus[] = ["new", "read", "done"];

export interface SuggestionView {
  id: number;
  at: string;
  status: SuggestionStatus;
  text: string;
  playerId: string;
  username: string;
  discordId: string;
  markedBy: string | null;
  markedAt: string | null;
}

/** Suggestions, oldest first (the order they should be read in), of one status or all. */
export function listSuggestions(db: Database, status: SuggestionStatus | "all", limit: number): Promise<SuggestionView[]> {
  return db.run(async (em) => {
    const rows = await sqlRows(
      em,
      `SELECT s.id, s.created_at, s.status, s.text, s.marked_by, s.marked_at, p.id AS player_id, p.username, p.discord_id
         FROM suggestions s JOIN players p ON p.id = s.player_id
        WHERE $1::text IS NULL OR s.status = $1
        ORDER BY s.id LIMIT $2`,
      [status === "all" ? null : status, limit],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      at: new Date(r.created_at as string).toISOString(),
      status: r.status as SuggestionStatus,
      text: r.text as string,
      playerId: r.player_id as string,
      username: r.username as string,
      discordId: r.discord_id as string,
      markedBy: (r.marked_by as string | null) ?? null,
      markedAt: r.marked_at ? new Date(r.marked_at as string).toISOString() : null,
    }));
  });
}

/** Marks a suggestion read or done (or new again), with who and when, and an audit row in the same transaction. */
export function markSuggestion(
  db: Database,
  id: number,
  status: SuggestionStatus,
  operator: string,
  note?: string,
): Promise<{ id: number; from: SuggestionStatus; to: SuggestionStatus }> {
  return db.transaction(async (em) => {
    const [row] = await sqlRows<{ status: SuggestionStatus; player_id: string }>(
      em,
      `SELECT status, player_id FROM suggestions WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!row) throw new AppError("not_found", 404, `No suggestion has the id ${id}`);
    await sqlRows(em, `UPDATE suggestions SET status = $2, marked_by = $3, marked_at = now() WHERE id = $1`, [id, status, operator]);
    await recordAction(em, {
      operator,
      action: "mark_suggestion",
      playerId: row.player_id,
      reason: note?.trim() || `marked ${status}`,
      details: { suggestionId: id, from: row.status, to: status },
    });
    return { id, from: row.status, to: status };
  });
}
