import { loadConfig } from "../config";
import { openDatabase } from "../db/database";
import { auditLedger } from "./audit-ledger";
import { printAnswer } from "../log";

/**
 * `npm run audit`: prints every balance that disagrees with the ledger, and every ledger entry, round or
 * stored answer whose player (or round whose seed) is missing; exits 1 if there is one.
 */
const config = loadConfig();
const db = await openDatabase(config.databaseUrl, config.dataDir);
const { players, mismatches, missingReferences } = await auditLedger(db);
await db.close();
// The report is the command's answer, on standard output, whatever the log's format.
for (const m of mismatches) {
  printAnswer(`MISMATCH player ${m.playerId}: balance ${m.balance}, ledger sum ${m.ledgerSum}, last running balance ${m.lastBalanceAfter}`);
}
for (const m of missingReferences) {
  printAnswer(`MISSING ${m.reference} ${m.id}: ${m.rows} row(s) refer to it, and it does not exist`);
}
printAnswer(
  `audited ${players} players: ${mismatches.length === 0 ? "every balance equals its ledger" : `${mismatches.length} mismatches`}` +
    `, ${missingReferences.length === 0 ? "every entry, round and answer has its player and seed" : `${missingReferences.length} missing references`}`,
);
process.exit(mismatches.length === 0 && missingReferences.length === 0 ? 0 : 1);
