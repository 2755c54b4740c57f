import { describe, expect, it } from "vitest";
import { HOLDEM_DEFAULTS } from "../../src/games/holdem/config";
import { dealHoldemHand, holdemClientSeed, holdemDeck } from "../../src/games/holdem/deck";
import { jsonBlocks, pickAndRemove, sha256, SPEC, stream } from "../fairness-pages";

/** docs/fairness.md section 8's worked example. */
const example = jsonBlocks(SPEC).find((b) => b.holdemDeck === "worked example")!;

describe("Hold'em deck: docs/fairness.md section 8", () => {
  it("holds the worked example", () => {
    expect(example).toBeDefined();
  });

  it("re-derives the example's client seed and deck with the project's code", () => {
    expect(holdemClientSeed(example.seeds)).toBe(example.handClientSeed);
    expect(holdemDeck(example.serverSeed, example.seeds, example.handNumber)).toEqual(example.deck);
  });

  it("re-derives them from the document's words alone (node:crypto, no project code)", () => {
    const lines = [...example.seeds]
      .sort((a: { seat: number }, b: { seat: number }) => a.seat - b.seat)
      .map((s: { seat: number; clientSeed: string }) => `${s.seat}:${s.clientSeed}`)
      .join("\n");
    const handClientSeed = sha256(lines);
    expect(handClientSeed).toBe(example.handClientSeed);
    const s = stream(example.serverSeed, handClientSeed, example.handNumber);
    expect(
      pickAndRemove(
        s,
        Array.from({ length: 52 }, (_, i) => i),
        52,
      ),
    ).toEqual(example.deck);
  });

  it("deals the example's hand again from its record and reaches the published result", () => {
    const seats = [...example.seeds].map((s: { seat: number }) => ({
      seat: s.seat,
      playerId: `p${s.seat}`,
      stack: example.stack,
      timeBank: 0,
      connected: true,
    }));
    const dealt = dealHoldemHand({
      serverSeed: example.serverSeed,
      serverSeedHash: example.serverSeedHash,
      seeds: example.seeds,
      start: {
        handNumber: example.handNumber,
        config: { ...HOLDEM_DEFAULTS, smallBlind: example.smallBlind, bigBlind: example.bigBlind },
        button: example.button,
        smallBlindSeat: example.smallBlindSeat,
        bigBlindSeat: example.bigBlindSeat,
        seats,
      },
      actions: example.actions,
    });
    expect(dealt.commitment.matches).toBe(true);
    expect(dealt.deck).toEqual(example.deck);
    expect(dealt.hole).toEqual(example.hole);
    expect(dealt.result.board).toEqual(example.board);
    expect(dealt.result.shown.map((s) => ({ seat: s.seat, category: s.best.category, cards: s.best.cards }))).toEqual(example.shown);
    expect(dealt.result.mucked).toEqual(example.mucked);
    expect(dealt.result.pots).toEqual(example.pots);
    expect(dealt.result.stacks).toEqual(example.stacks);
  });

  it("gives another deck for another hand number, another seed or another client seed", () => {
    const base = holdemDeck(example.serverSeed, example.seeds, 1);
    expect(holdemDeck(example.serverSeed, example.seeds, 2)).not.toEqual(base);
    expect(holdemDeck("0".repeat(64), example.seeds, 1)).not.toEqual(base);
    const otherSeeds = [...example.seeds.slice(1), { seat: 1, clientSeed: "alice-2" }];
    expect(holdemDeck(example.serverSeed, otherSeeds, 1)).not.toEqual(base);
  });

  it("reports a revealed seed that does not match the commitment", () => {
    const record = {
      serverSeed: "0".repeat(64),
      serverSeedHash: example.serverSeedHash,
      seeds: example.seeds,
      start: {
        handNumber: 1,
        config: HOLDEM_DEFAULTS,
        button: 1,
        smallBlindSeat: 4,
        bigBlindSeat: 6,
        seats: [1, 4, 6].map((seat) => ({ seat, playerId: `p${seat}`, stack: 200, timeBank: 0, connected: true })),
      },
      actions: [
        { seat: 1, action: { type: "fold" } },
        { seat: 4, action: { type: "fold" } },
      ] as const,
    };
    expect(dealHoldemHand(record).commitment.matches).toBe(false);
  });

  it("refuses seeds with a seat twice or fewer than two players", () => {
    expect(() => holdemClientSeed([{ seat: 1, clientSeed: "a" }])).toThrow();
    expect(() =>
      holdemClientSeed([
        { seat: 1, clientSeed: "a" },
        { seat: 1, clientSeed: "b" },
      ]),
    ).toThrow();
  });
});
