import { directDatabaseUrl, loadConfig } from "../platform/config";
import { openDatabase } from "../platform/db/database";
import { printAnswer } from "../platform/log";
import { archiveCandidates, archiveCutoff, archiveOldPartitions } from "./archive";

/**
 * `npm run archive`: archives the monthly partitions of the ledger and the rounds that ended
 * `ARCHIVE_AFTER_MONTHS` whole months before the current month, to `ARCHIVE_DIR` (server/src/ops/archive.ts,
 * docs/operations.md "Archiving old months"). `--dry-run` lists them and changes nothing. Off (exit 1,
 * nothing done) while `ARCHIVE_AFTER_MONTHS` is not set. On the embedded PGlite database only with the
 * server stopped (`--embedded`). Exit 0: done, or nothing due, or another process is archiving.
 */
const config = loadConfig();
const dryRun = process.argv.includes("--dry-run");
const { afterMonths, dir } = config.archive;
if (afterMonths === null) {
  printAnswer("archival is off: set ARCHIVE_AFTER_MONTHS (whole months to keep before the current month, at least 2)", "stderr");
  process.exit(1);
}
if (!dir) {
  printAnswer("no archive directory: set ARCHIVE_DIR", "stderr");
  process.exit(1);
}
const url = directDatabaseUrl(config);
if (!url && !process.argv.includes("--embedded")) {
  printAnswer("no DATABASE_URL: to archive the embedded database, stop the server and pass --embedded", "stderr");
  process.exit(1);
}
const db = await openDatabase(url, config.dataDir);
try {
  const cutoff = archiveCutoff(afterMonths).toISOString();
  if (dryRun) {
    const due = await archiveCandidates(db, afterMonths);
    for (const c of due) printAnswer(`due ${c.name} (${c.from?.toISOString() ?? "-infinity"} to ${c.to.toISOString()})`);
    printAnswer(`${due.length} partition(s) end on or before ${cutoff}; nothing changed (--dry-run)`);
  } else {
    const report = await archiveOldPartitions(db, { afterMonths, dir });
    if (report.busy) printAnswer("another process is archiving; nothing done");
    for (const a of report.archived) printAnswer(`archived ${a.partition}: ${a.rows} rows to ${a.file}`);
    printAnswer(`${report.archived.length} partition(s) archived; the partitions kept end after ${cutoff}`);
  }
} finally {
  await db.close();
}
