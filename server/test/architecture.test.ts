import { readFileSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The money rule of the architecture, checked on the source: only server/src/ledger/ writes
 * players.balance. (Import boundaries are checked by ESLint.)
 */
const SERVER_SRC = join(import.meta.dirname, "..", "src");
const LEDGER_DIR = join(SERVER_SRC, "ledger") + sep;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The statements of a source text that write a player's balance: SQL, or a TypeORM update/insert of the column. */
export function balanceWrites(text: string): string[] {
  // SQL is read one string literal at a time, so a statement never borrows a word from its neighbour.
  const literals = [...text.matchAll(/`[^`]*`|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g)].map((m) => m[0]);
  const sql = literals.filter((l) =>
    /UPDATE\s+players\b[\s\S]*\bSET\b[\s\S]*\bbalance\s*=|INSERT\s+INTO\s+players\s*\([^)]*\bbalance\b/i.test(l),
  );
  const orm = [...text.matchAll(/\.(update|insert|save|increment|decrement)\s*\([^;]*\bbalance\b/g)].map((m) => m[0]);
  return [...sql, ...orm];
}

describe("only the ledger writes balances", () => {
  it("finds a balance write wherever it is written (the scanner itself)", () => {
    expect(balanceWrites("await q(`UPDATE players SET balance = balance + $2 WHERE id = $1`)")).toHaveLength(1);
    expect(balanceWrites("await q(`UPDATE players\n   SET username = $2, balance = 5`)")).toHaveLength(1);
    expect(balanceWrites("q(`INSERT INTO players (discord_id, balance) VALUES ($1, $2)`)")).toHaveLength(1);
    expect(balanceWrites("q(`UPDATE players SET last_reminder_sent = now()`); state.balance = 1;")).toHaveLength(0);
    expect(balanceWrites("repo.update({ id }, { balance: 10 })")).toHaveLength(1);
    expect(balanceWrites("repo.increment({ id }, 'balance', 5)")).toHaveLength(1);
    expect(balanceWrites("q(`SELECT balance FROM players WHERE id = $1`)")).toHaveLength(0);
    expect(balanceWrites("q(`UPDATE players SET last_daily_spin = $2 WHERE id = $1`)")).toHaveLength(0);
  });

  it("finds none outside server/src/ledger/", () => {
    const offenders = sourceFiles(SERVER_SRC)
      .filter((file) => !file.startsWith(LEDGER_DIR))
      .flatMap((file) => balanceWrites(readFileSync(file, "utf8")).map((w) => `${relative(SERVER_SRC, file)}: ${w.replace(/\s+/g, " ")}`));
    expect(offenders).toEqual([]);
  });

  it("finds the ledger's own writes (so the scan really reads the tree)", () => {
    const inLedger = sourceFiles(LEDGER_DIR).flatMap((file) => balanceWrites(readFileSync(file, "utf8")));
    expect(inLedger.length).toBeGreaterThan(0);
  });
});
