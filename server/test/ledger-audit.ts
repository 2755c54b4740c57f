import { expect } from "vitest";
import type { LedgerAudit } from "../src/ops/audit-ledger";

/**
 * Double entry, asserted wherever a test audits the ledger (every test's `expectLedgerInvariant()`, and
 * `auditDatabase` after the fault tests): every coin that moved came from an account and went to one, so
 * the players' balances and the house's, mint's and holdings' sum to zero, and every holding holds the
 * stakes of the rounds still open there.
 */
export function expectBalancedEconomy(audit: LedgerAudit): void {
  expect(audit.economy.total, `the economy does not sum to zero: ${JSON.stringify(audit.economy)}`).toBe(0);
  expect(audit.holdingMismatches).toEqual([]);
}
