import { directDatabaseUrl, loadConfig } from "../platform/config";
import { openDatabase } from "../platform/db/database";
import { auditLedger } from "./audit-ledger";
import { printAnswer } from "../platform/log";

/**
 * `npm run audit`: prints every balance that disagrees with the ledger, every ledger entry, round or
 * stored answer whose player (or round whose seed) is missing, an economy that does not sum to zero and
 * every holding that does not hold its open rounds' stakes; exits 1 if there is one.
 */
const config = loadConfig();
const db = await openDatabase(directDatabaseUrl(config), config.dataDir);
const { players, mismatches, missingReferences, economy, holdingMismatches } = await auditLedger(db);
await db.close();
// The report is the command's answer, on standard output, whatever the log's format.
for (const m of mismatches) {
  printAnswer(`MISMATCH player ${m.playerId}: balance ${m.balance}, ledger sum ${m.ledgerSum}, last running balance ${m.lastBalanceAfter}`);
}
for (const m of missingReferences) {
  printAnswer(`MISSING ${m.reference} ${m.id}: ${m.rows} row(s) refer to it, and it does not exist`);
}
for (const h of holdingMismatches) {
  printAnswer(`HOLDING ${h.account}: balance ${h.balance}, stakes of its open rounds ${h.openStakes}`);
}
if (economy.total !== 0) {
  printAnswer(
    `IMBALANCE the economy sums to ${economy.total}: players ${economy.players}, ` +
      economy.accounts.map((a) => `${a.account} ${a.balance}`).join(", "),
  );
}
printAnswer(
  `the economy (players and ${economy.accounts.length} accounts) ${economy.total === 0 ? "sums to zero" : `sums to ${economy.total}`}` +
    `, ${holdingMismatches.length === 0 ? "every holding holds its open stakes" : `${holdingMismatches.length} holding mismatches`}`,
);
printAnswer(
  `audited ${players} players: ${mismatches.length === 0 ? "every balance equals its ledger" : `${mismatches.length} mismatches`}` +
    `, ${missingReferences.length === 0 ? "every entry, round and answer has its player and seed" : `${missingReferences.length} missing references`}`,
);
process.exit(mismatches.length === 0 && missingReferences.length === 0 && economy.total === 0 && holdingMismatches.length === 0 ? 0 : 1);
