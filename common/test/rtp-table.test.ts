import { describe, expect, it } from "vitest";
import { exactRtp } from "./exact-rtp";
import { coupOdds } from "../src/games/baccarat/rtp";
import { BACCARAT_DECKS } from "../src/games/baccarat/engine";
import { BACCARAT_WIN_PROBABILITY, RTP_TABLE } from "../src/rtp-table";
import { GAMES } from "../src/catalogue";

const STALE = "common/src/rtp-table.ts is stale: run `npm run docs:games`";

describe("the static RTP table the client shows", () => {
  it("lists every chance game of the catalogue", () => {
    const chance = GAMES.filter((g) => g.kind === "chance").map((g) => g.id);
    expect(Object.keys(RTP_TABLE).sort()).toEqual([...chance].sort());
  });

  it.each(exactRtp())("%s equals the exact computation", (game, rows) => {
    const computed = rows.map((r) => ({ bet: r.bet, rtp: r.rtp }));
    const stored = RTP_TABLE[game as keyof typeof RTP_TABLE] ?? [];
    expect(
      stored.map((r) => r.bet),
      STALE,
    ).toEqual(computed.map((r) => r.bet));
    for (const [i, row] of computed.entries()) expect(stored[i]!.rtp, `${game} ${row.bet}: ${STALE}`).toBeCloseTo(row.rtp, 12);
  });

  it("baccarat's win probabilities equal the exact coup enumeration and sum to 1", () => {
    const odds = coupOdds(BACCARAT_DECKS);
    for (const side of ["player", "banker", "tie"] as const) {
      expect(BACCARAT_WIN_PROBABILITY[side], STALE).toBeCloseTo(Number(odds.ways[side]) / Number(odds.total), 12);
    }
    const sum = BACCARAT_WIN_PROBABILITY.player + BACCARAT_WIN_PROBABILITY.banker + BACCARAT_WIN_PROBABILITY.tie;
    expect(sum).toBeCloseTo(1, 12);
  });
});
