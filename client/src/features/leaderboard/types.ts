import type { BoardEntryBase, ActiveTagView } from "@casino/common/api";

/** The entries of the boards, as the server sends them (common/api.ts) over REST and the room. */
export type { BalanceEntry, SpeedEntry, KillsEntry } from "@casino/common/api";

/** What a row shows of any board's entry. */
export type BoardPlayer = BoardEntryBase & { activeTag?: ActiveTagView | null };
