import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { ANONYMOUS_ID_PREFIX } from "@casino/common";
import { StandIns } from "../../src/core/players/stand-ins";
import { boardPlace } from "../../src/leaderboard/entries";
import type { BoardSpec } from "../../src/leaderboard/types";

const SECRET = "a secret of the server, at least 32 characters long";
const DAY = Date.UTC(2026, 11, 7, 12);
const balance: BoardSpec = { board: "balance", window: "all", scope: "global" };

describe("the stand-in of an anonymous player's id", () => {
  it("is opaque, the same on one board and day, distinct per player", () => {
    const standIns = new StandIns(SECRET, () => DAY);
    const ids = Array.from({ length: 1000 }, () => randomUUID());
    const shown = ids.map((id) => standIns.of(boardPlace(balance), id));
    for (const [i, s] of shown.entries()) {
      expect(s).toMatch(new RegExp(`^${ANONYMOUS_ID_PREFIX}[A-Za-z0-9_-]{22}$`));
      expect(s).not.toContain(ids[i]!);
      expect(s).not.toContain(ids[i]!.slice(0, 8));
    }
    expect(new Set(shown).size).toBe(ids.length);
    // Computed again (another read, another process with the same secret): the same.
    expect(ids.map((id) => new StandIns(SECRET, () => DAY + 3_600_000).of(boardPlace(balance), id))).toEqual(shown);
  });

  it("differs per board, window, scope and UTC day, and per secret", () => {
    const id = randomUUID();
    const today = new StandIns(SECRET, () => DAY);
    const specs: BoardSpec[] = [
      balance,
      { board: "balance", window: "day", scope: "global" },
      { board: "balance", window: "week", scope: "global" },
      { board: "speed", window: "all", scope: "global" },
      { board: "kills", window: "all", scope: "global" },
      { board: "balance", window: "all", scope: "guild", scopeId: "1" },
      { board: "balance", window: "all", scope: "guild", scopeId: "2" },
      { board: "balance", window: "all", scope: "instance", scopeId: "1" },
    ];
    const shown = [
      ...specs.map((spec) => today.of(boardPlace(spec), id)),
      new StandIns(SECRET, () => DAY + 86_400_000).of(boardPlace(balance), id),
      new StandIns(`${SECRET}!`, () => DAY).of(boardPlace(balance), id),
    ];
    expect(new Set(shown).size).toBe(shown.length);
  });
});
