/**
 * What an account can be, besides playing: suspended by an operator (refused everywhere until restored)
 * or erased at its owner's request (personal fields removed; its ledger stays, anonymised). Shared by
 * the server, which enforces it, and the client, which tells the player why its connection ended.
 */
export const PLAYER_STATUSES = ["active", "suspended", "erased"] as const;
export type PlayerStatus = (typeof PLAYER_STATUSES)[number];

/**
 * The WebSocket close code of a connection the server ends because its account was suspended or
 * erased; the close reason is the message for the player. The client does not rejoin after it.
 */
export const ACCOUNT_CLOSED_CLOSE_CODE = 4403;

/** An erased player's `discordId` is this prefix and the player id: the Discord id itself is gone. */
export const ERASED_ID_PREFIX = "erased-";
/** An erased player's name. */
export const ERASED_USERNAME = "Deleted player";
