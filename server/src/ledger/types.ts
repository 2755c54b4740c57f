/** Why a ledger entry moved coins (the `reason` column of `ledger_entries`). */
export type LedgerReason = "grant" | "bet" | "payout" | "refund" | "daily_spin" | "reward" | "admin_adjustment";
