/**
 * The money engine: how a request that moves coins runs (one transaction, the player's row locked
 * first, idempotent by request id, group-committed), and the one way to move coins in it. Product
 * modules (bets, spins, crash money, skill rewards, adjustments, seed rotation) import it from here
 * only; the engine imports no product.
 *
 * A product's request: `requests.run({ playerId, requestId, kind, body }, async (ctx) => …)`. Inside,
 * check against `ctx` (the locked player, seed, open round), move coins with `moveCoins` (balance and
 * ledger entries), record a finished round with `recordRound`, queue other rows with `ctx.writes.add`
 * (`ctx.writes.p` for values), and answer a plain object: it is stored under the request id and
 * replayed to the same request again. Once it commits, the engine announces the player's new balance
 * (if coins moved) and whatever the work pushed to `ctx.announced` on the one bus (`announcements.ts`).
 */
export { Announcements, type Announcement, type AnnouncementListener, type BalanceReason } from "./announcements";
export { MINT, holdingAccount, houseAccount, openAccount, type NewPlayer } from "./accounts";
export { markSeen, moveCoins, postHolding, recordRound, type MoveOptions, type Movement, type RoundRecord } from "./movements";
export { fairnessOf, lockPlayer, type LockedPlayer, type OpenRoundRow, type SeedRow } from "./reads";
export { ledgerEntryId, type LedgerReason, type RequestKind } from "./reasons";
export { MoneyRequests, type MoneyContext, type MoneyRequest, type Replayable } from "./requests";
export type { WriteBatch } from "./writes";
