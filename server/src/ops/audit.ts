import { loadConfig } from "../config";
import { openDatabase } from "../db/database";
import { auditLedger } from "./audit-ledger";
import { printAnswer } from "../log";

/** `npm run audit`: prints every balance that disagrees with the ledger; exits 1 if there is one. */
const config = loadConfig();
const db = await openDatabase(config.databaseUrl, config.dataDir);
const { players, mismatches } = await auditLedger(db);
await db.close();
// The report is the command's answer, on standard output, whatever the log's format.
for (const m of mismatches) {
  printAnswer(`MISMATCH player ${m.playerId}: balance ${m.balance}, ledger sum ${m.ledgerSum}, last running balance ${m.lastBalanceAfter}`);
}
printAnswer(
  `audited ${players} players: ${mismatches.length === 0 ? "every balance equals its ledger" : `${mismatches.length} mismatches`}`,
);
process.exit(mismatches.length === 0 ? 0 : 1);
