import { RTP_SOURCES } from "../rtp/sources";

/**
 * `npm run rtp`: computes every game's exact return to player and prints the README's table.
 * `--methods` adds how each value was computed; `--full` lists every row; by default long families (every keno table, every mines count) are
 * summarised by their range.
 */
const full = process.argv.includes("--full");
const withMethods = process.argv.includes("--methods");
const pct = (x: number) => `${(x * 100).toFixed(4)} %`;
const SUMMARISE_OVER = 20;

console.log(
  withMethods ? "| game | bet | min bet | exact RTP | game-rules.md | method |" : "| game | bet | min bet | exact RTP | game-rules.md |",
);
console.log(withMethods ? "|---|---|---|---|---|---|" : "|---|---|---|---|---|");
const range = (values: number[], format: (x: number) => string) => {
  const [lo, hi] = [Math.min(...values), Math.max(...values)];
  return lo === hi ? format(lo) : `${format(lo)} – ${format(hi)}`;
};
const line = (cells: string[], method: string) =>
  console.log(`| ${[...cells, ...(withMethods ? [method.replace(/\|/g, "/")] : [])].join(" | ")} |`);
for (const [game, compute] of RTP_SOURCES) {
  const started = performance.now();
  const rows = compute();
  const ms = performance.now() - started;
  if (!full && rows.length > SUMMARISE_OVER) {
    const rtps = rows.map((r) => r.rtp);
    const refs = rows.map((r) => r.reference).filter((r): r is number => r !== undefined);
    const refText = refs.length ? `${pct(Math.min(...refs))} – ${pct(Math.max(...refs))}` : "";
    line(
      [
        game,
        `${rows.length} bet types (\`npm run rtp -- --full\`)`,
        range(
          rows.map((r) => r.minBet),
          String,
        ),
        `${pct(Math.min(...rtps))} – ${pct(Math.max(...rtps))}`,
        refText,
      ],
      rows[0]!.method,
    );
  } else {
    for (const r of rows) {
      line([game, r.bet || "—", String(r.minBet), pct(r.rtp), r.reference === undefined ? "" : pct(r.reference)], r.method);
    }
  }
  console.error(`${game}: ${rows.length} rows in ${ms.toFixed(0)} ms`);
}
