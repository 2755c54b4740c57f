import type { EntityManager } from "typeorm";
import { STARTING_BALANCE } from "@casino/common";
import type { Row } from "../../../platform/db/rows";
import { sqlRows } from "../../../platform/db/sql";
import { ledgerEntryId } from "./reasons";

/**
 * The accounts that are not players (docs/architecture/money-path.md, "Accounts"): every ledger entry is a
 * transfer between its player and one of them (its `account`), so every movement sums to zero.
 */
/** The house's account of a game: its balance is the house's result in that game. */
export const houseAccount = (game: string): string => `house:${game}`;
/** Where the stakes of a round still open wait (`holding:<game>`, or `holding:blackjack-table`), until posted to the house or paid back. */
export const holdingAccount = (holder: string): string => `holding:${holder}`;
/** Where coins enter the economy (or leave it, for a claw-back): one account per source. */
export const MINT = {
  startingGrant: "mint:starting-grant",
  dailySpin: "mint:daily-spin",
  skillReward: "mint:skill-reward",
  adminGrant: "mint:admin-grant",
  adminClawBack: "mint:admin-claw-back",
} as const;

export interface NewPlayer {
  discordId: string;
  username: string;
  avatarUrl: string | null;
}

/**
 * A new player's row with the starting balance, and the ledger entry that grants it from the mint (the
 * player's first entry, so the balance equals the sum of the entries from the start). Answers the player's id. Runs in
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
    `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account) VALUES ($1, $2, $2, 'grant', 'starting balance', $3, $4)`,
    [playerId, STARTING_BALANCE, ledgerEntryId("#starting", "grant"), MINT.startingGrant],
  );
  return playerId;
}
