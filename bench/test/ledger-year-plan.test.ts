import { describe, expect, it } from "vitest";
import { checkDisk, ENTRIES_PER_PLAYER_YEAR, LEDGER_BYTES_PER_ROW, ledgerYearSizes, parseLedgerYearArgs } from "../lib/ledger-year-plan";

describe("bench:ledger-year's plan", () => {
  it("gives each player a year's depth of entries unless told the players", () => {
    expect(ENTRIES_PER_PLAYER_YEAR).toBe(5475);
    const plan = parseLedgerYearArgs(["--rows", "50_000_000"]);
    expect(plan.rows).toBe(50_000_000);
    expect(plan.players).toBe(9132);
    expect(plan.layouts).toEqual(["plain", "partitioned"]);
    expect(parseLedgerYearArgs(["--rows", "1000", "--players", "10", "--layout", "partitioned"])).toMatchObject({
      players: 10,
      layouts: ["partitioned"],
    });
  });

  it("refuses arguments it cannot use, naming them", () => {
    expect(() => parseLedgerYearArgs(["--layout", "sharded"])).toThrow(/--layout/);
    expect(() => parseLedgerYearArgs(["--rows", "12.5"])).toThrow(/--rows/);
    expect(() => parseLedgerYearArgs(["--rows", "10"])).toThrow(/at least 1000/);
  });

  it("counts a round for every 1.5 entries and the ledger once per layout", () => {
    const one = ledgerYearSizes(3_000_000, 1000, 1);
    expect(one.rounds).toBe(2_000_000);
    expect(one.entriesPerDay).toBe(8219);
    expect(one.entriesPerPlayer).toBe(3000);
    expect(ledgerYearSizes(3_000_000, 1000, 2).bytes - one.bytes).toBe(3_000_000 * LEDGER_BYTES_PER_ROW);
  });

  it("refuses a run that needs more than half the free disk and says what fits", () => {
    const need = ledgerYearSizes(10_000_000, 1, 2).bytes;
    expect(() => checkDisk(10_000_000, 2, need * 2)).not.toThrow();
    expect(() => checkDisk(10_000_000, 2, need * 2 - 1)).toThrow(/at most about 9999999 entries fit/);
  });
});
