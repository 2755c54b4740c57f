import { z } from "zod";
import { seatLines, type SeatSeed } from "../../fairness/shoe";
import { drawWithoutReplacement, floatStream, sha256Hex, type FairnessInput } from "../../fairness/stream";
import { clientSeed } from "../../protocol";
import { FULL_DECK, type Card } from "../cards";
import { HOLDEM_MAX_SEATS } from "./config";
import { replayHand, type HandResult, type HandStart, type HoldemAction } from "./hand-machine";

/**
 * A Hold'em hand's deck (docs/fairness.md, "The Hold'em table's deck"): the 52 cards shuffled from the
 * hand's server seed, committed before the hand, mixed with the client seed of every player dealt in,
 * by the same float stream and pick-and-remove as every other game (no other source of randomness).
 */

export const holdemSeatSeeds = z
  .array(z.object({ seat: z.number().int().min(1).max(HOLDEM_MAX_SEATS), clientSeed }).strict())
  .min(2, "a hand needs the client seeds of at least two seats")
  .max(HOLDEM_MAX_SEATS)
  .refine((seeds) => new Set(seeds.map((s) => s.seat)).size === seeds.length, "each seat may appear only once");

/** The hand's client seed: SHA-256 of the seat lines (`seat:clientSeed`, ascending seats, LF-joined). */
export const holdemClientSeed = (seeds: readonly SeatSeed[]): string => sha256Hex(seatLines(holdemSeatSeeds.parse(seeds)));

/** The hand's stream: key = the hand's server seed, message = holdemClientSeed:handNumber:block. */
export const holdemStreamInput = (serverSeed: string, seeds: readonly SeatSeed[], handNumber: number): FairnessInput => ({
  serverSeed,
  clientSeed: holdemClientSeed(seeds),
  nonce: handNumber,
});

/** The 52 cards in code order, then pick-and-remove of all 52, one float each: the deck in dealing order. */
export const holdemDeck = (serverSeed: string, seeds: readonly SeatSeed[], handNumber: number): Card[] =>
  drawWithoutReplacement(floatStream(holdemStreamInput(serverSeed, seeds, handNumber)), FULL_DECK, 52);

/** What a verifier needs to deal a hand again: the revealed seed, the seats' seeds and the hand's record. */
export interface HoldemHandRecord {
  serverSeed: string;
  /** The commitment shown before the hand, checked when given. */
  serverSeedHash?: string;
  seeds: readonly SeatSeed[];
  /** The hand's start as the table planned it (its deck is derived here). */
  start: Omit<HandStart, "deck">;
  /** The actions in the order they were applied (an action taken for an idle player included). */
  actions: readonly { seat: number; action: HoldemAction }[];
}

export interface DealtHoldemHand {
  commitment: { serverSeedHash: string; expected: string | null; matches: boolean | null };
  clientSeed: string;
  deck: Card[];
  hole: { seat: number; cards: Card[] }[];
  result: HandResult;
}

/** Re-deals a hand from its revealed seeds and replays its actions with the table's own hand machine. */
export function dealHoldemHand(record: HoldemHandRecord): DealtHoldemHand {
  const serverSeedHash = sha256Hex(record.serverSeed);
  const expected = record.serverSeedHash?.toLowerCase() ?? null;
  const deck = holdemDeck(record.serverSeed, record.seeds, record.start.handNumber);
  const hand = replayHand({ ...record.start, deck }, record.actions);
  if (!hand.result) throw new Error("the hand's record ends before the hand does");
  return {
    commitment: { serverSeedHash, expected, matches: expected === null ? null : expected === serverSeedHash },
    clientSeed: holdemClientSeed(record.seeds),
    deck,
    hole: hand.seats.map((s) => ({ seat: s.seat, cards: [...s.hole] })),
    result: hand.result,
  };
}
