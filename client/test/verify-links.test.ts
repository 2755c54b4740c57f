import { describe, expect, it } from "vitest";
import type { HistoryItem } from "@casino/common/api";
import { holdemHandOfVerifyQuery, shoeOfVerifyQuery } from "@casino/common/verifiers/verify-link";
import { tableRoundOf, verifyHref } from "../src/games/shared/api";

/**
 * A history row's link to the verifier: a solo round once its seed is revealed, a table round to its
 * shoe's round, a Hold'em hand to its record.
 */
const row = (over: Partial<HistoryItem>): HistoryItem => ({
  id: "r1",
  kind: "round",
  gameType: "blackjack",
  amount: 7,
  betAmount: 7,
  result: "win",
  payout: 14,
  requestId: "req-1",
  params: {},
  actions: [],
  rounding: 2,
  outcome: null,
  createdAt: "2026-11-26T22:00:00.000Z",
  fairness: { serverSeedHash: null, clientSeed: null, nonce: null, serverSeed: null },
  ...over,
});

describe("history rows' verify links", () => {
  it("links a seat's round at the shared table to its shoe on the verifier, at its round", () => {
    const shoeId = "eb64a6a2-d8e9-4582-bcbf-9b7d397e89c2";
    // the params the table's settlement writes (server/src/table/table-money.ts)
    const table = row({ params: { table: "public:1", shoeId, round: 12, roundId: "x", seat: 4 } });
    expect(tableRoundOf(table)).toEqual({ shoeId, round: 12 });
    const href = verifyHref(table)!;
    expect(href).toBe(`/verify?shoe=${shoeId}#round-12`);
    expect(shoeOfVerifyQuery(new URL(href, "http://x").search)).toBe(shoeId);
  });

  it("leaves a solo round without a link until its seed is revealed, and then links its seeds", () => {
    const fairness = { serverSeedHash: "a".repeat(64), clientSeed: "c", nonce: 3, serverSeed: null };
    expect(tableRoundOf(row({ fairness }))).toBeNull();
    expect(verifyHref(row({ fairness }))).toBeNull();
    expect(verifyHref(row({ fairness: { ...fairness, serverSeed: "s" } }))).toMatch(/^\/verify\?game=blackjack&serverSeed=s&/);
  });

  it("links a Hold'em hand to the hand's record on the verifier, never to the player's own seeds", () => {
    const handId = "0b2f9c1e-4d1a-4a53-9a0e-5d7f1c2b3a4d";
    // the row the history reads from holdem_hand_players (server/src/core/players/history.ts)
    const hand = row({
      id: `holdem-${handId}`,
      kind: "holdem_hand",
      gameType: "holdem",
      params: { handId, tableId: "t", seat: 3, handNumber: 7 },
      rounding: null,
      fairness: { serverSeedHash: "a".repeat(64), clientSeed: "c", nonce: 7, serverSeed: "s" },
    });
    const href = verifyHref(hand)!;
    expect(href).toBe(`/verify?holdemHand=${handId}`);
    expect(holdemHandOfVerifyQuery(new URL(href, "http://x").search)).toBe(handId);
    expect(shoeOfVerifyQuery(new URL(href, "http://x").search)).toBeNull();
  });
});
