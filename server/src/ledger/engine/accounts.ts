import type { EntityManager } from "typeorm";
import { STARTING_BALANCE } from "@casino/common";
import type { Row } from "../../db/rows";
import { sqlRows } from "../../db/sql";
import { ledgerEntryId } from "./reasons";

export interface NewPlayer {
  discordId: string;
  username: string;
  avatarUrl: string | null;
}

/**
 * A new player's row with the starting balance, and the ledger entry that grants it (the player's first
 * entry, so the balance equals the sum of the entries from the start). Answers the player's id. Runs in
 * the caller's transaction (`MoneyRequests.transaction`), which writes the player's seeds too.
 */
export async function openAccount(em: EntityManager, fields: NewPlayer): Promise<string> {
  const [row] = await sqlRows<Row<"players", "id">>(
    em,
    `INSERT INTO players (discord_id, username, avatar_url, balance) VALUES ($1, $2, $3, $4) RETURNING id`,
    [fields.discordId, fields.username, fields.avatarUrl, STARTING_BALANCE],
  );
  const playerId = row.id as string;
  await sqlRows(
    em,
    `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id) VALUES ($1, $2, $2, 'grant', 'starting balance', $3)`,
    [playerId, STARTING_BALANCE, ledgerEntryId("#starting", "grant")],
  );
  return playerId;
}
