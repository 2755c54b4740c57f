import { rtpTableHead, rtpTableRows } from "../src/rtp/doc";
import { RTP_SOURCES } from "../src/rtp-sources";

/**
 * `npm run rtp`: computes every game's exact return to player and prints the table of docs/rtp.md.
 * `--methods` adds how each value was computed; `--full` lists every row; by default long families (every keno table) are
 * summarised by their range.
 */
const options = { full: process.argv.includes("--full"), methods: process.argv.includes("--methods") };

for (const line of rtpTableHead(options)) console.log(line);
for (const [game, compute] of RTP_SOURCES) {
  const started = performance.now();
  const rows = compute();
  const ms = performance.now() - started;
  for (const line of rtpTableRows(game, rows, options)) console.log(line);
  console.error(`${game}: ${rows.length} rows in ${ms.toFixed(0)} ms`);
}
