import { GUEST_ID_PREFIX } from "@casino/common";

/**
 * Who is a guest, in SQL: a player whose Discord id is "guest-…" (`isGuestId` in common says it in
 * TypeScript). Every query, index and board states the rule through these, never by hand.
 */
export const guestSql = (discordIdColumn = "p.discord_id"): string => `${discordIdColumn} LIKE '${GUEST_ID_PREFIX}%'`;

/**
 * Who is ranked on the leaderboards, for `p` = players: signed-in players whose account is active.
 * Guests never are; a suspended or erased player drops off every board (a rebuild leaves them out,
 * the consumers skip them).
 */
export const RANKED_PLAYER = `NOT (${guestSql()}) AND p.status = 'active'`;
