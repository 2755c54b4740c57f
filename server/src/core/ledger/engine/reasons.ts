/** Why a ledger entry moved coins (the `reason` column of `ledger_entries`). */
export type LedgerReason = "grant" | "bet" | "payout" | "refund" | "daily_spin" | "reward" | "admin_adjustment" | "buy_in" | "cash_out";

/** The kinds of money request: a stored answer is replayed only to a request of the same kind (and contents). */
export type RequestKind =
  | "bet"
  | "act"
  | "spin"
  | "rotate"
  | "client-seed"
  | "crash-bet"
  | "crash-cashout"
  | "crash-settle"
  | "table-bet"
  | "table-act"
  | "table-settle"
  | "holdem-buy-in"
  | "holdem-cash-out"
  | "skill-reward"
  | "adjustment";

/**
 * The id of a ledger entry made by a request: `<request id>#<reason>`. '#' is outside the request-id
 * alphabet (common/protocol.ts), so no client request id ever equals a derived id; entries the server
 * makes on its own (grants, settling abandoned rounds) start with '#'.
 */
export const ledgerEntryId = (base: string, reason: string): string => `${base}#${reason}`;
