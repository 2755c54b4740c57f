import { z } from "zod";
import { FULL_DECK, type Card } from "./cards";
import { clientSeed } from "../fairness/client-seed";
import { drawWithoutReplacement, floatStream, sha256Hex, type FairnessInput, type Rng } from "../fairness/stream";

/**
 * The shared blackjack table's shoe (docs/fairness.md, "The shared table's shoe"): 6 decks shuffled
 * once from a server seed committed before the shoe's first round, mixed with the client seeds of the
 * players seated when that round is dealt. Built only from the float stream and pick-and-remove of
 * stream.ts: no other source of randomness.
 */

export const SHOE_DECKS = 6;
export const SHOE_CARDS = SHOE_DECKS * 52;
/**
 * The cut card sits in front of card index 234 (three quarters in, 78 cards behind it). It comes out when
 * card 234 is dealt; the round it comes out in is played to the end and is the shoe's last.
 */
export const CUT_CARD = 234;
export const TABLE_SEATS = 7;

/** The nonce of a shoe's stream: every shoe has its own server seed, used for that shoe alone. */
export const SHOE_NONCE = 0;

export const seatNumber = z
  .number({ error: "seat must be a number" })
  .int("seat must be a whole number")
  .min(1, `seat must be from 1 to ${TABLE_SEATS}`)
  .max(TABLE_SEATS, `seat must be from 1 to ${TABLE_SEATS}`);

/** One seated player's client seed, as mixed into the shoe. */
export const seatSeed = z.object({ seat: seatNumber, clientSeed }).strict();
export type SeatSeed = z.infer<typeof seatSeed>;

/** The seated players' seeds: at least one, each seat once. */
export const seatSeeds = z
  .array(seatSeed)
  .min(1, "at least one seated player's client seed is needed")
  .max(TABLE_SEATS)
  .refine((seeds) => new Set(seeds.map((s) => s.seat)).size === seeds.length, "each seat may appear only once");

/**
 * The text the table's client seed is hashed from: one line `seat:clientSeed` per seated player, in
 * ascending seat order, joined with "\n" (a client seed holds no newline, so the text reads back
 * unambiguously).
 */
export const seatSeedText = (seeds: readonly SeatSeed[]): string => seatLines(seatSeeds.parse(seeds));

/** The seat lines of seeds already checked (any table's seats: the Hold'em table seats more than 7). */
export const seatLines = (seeds: readonly SeatSeed[]): string =>
  [...seeds]
    .sort((a, b) => a.seat - b.seat)
    .map((s) => `${s.seat}:${s.clientSeed}`)
    .join("\n");

/** The table's client seed: SHA-256 of seatSeedText, as 64 lowercase hex characters. */
export const tableClientSeed = (seeds: readonly SeatSeed[]): string => sha256Hex(seatSeedText(seeds));

/** The stream the shoe is shuffled from: key = the shoe's server seed, message = tableClientSeed:0:block. */
export const shoeStreamInput = (serverSeed: string, seeds: readonly SeatSeed[]): FairnessInput => ({
  serverSeed,
  clientSeed: tableClientSeed(seeds),
  nonce: SHOE_NONCE,
});

/**
 * The 6 decks in canonical order (code order, each code six times: 0 0 0 0 0 0 1 1 …), then
 * pick-and-remove of all 312 cards, one float each: the shoe in dealing order. Because pick-and-remove
 * keeps the remaining list in code order, this is exactly "dealing from a fresh shoe" (section 3) run
 * to the last card.
 */
export function shuffleShoe(rng: Rng): Card[] {
  const ordered = FULL_DECK.flatMap((code) => new Array<Card>(SHOE_DECKS).fill(code));
  return drawWithoutReplacement(rng, ordered, SHOE_CARDS);
}

/**
 * Pack `pack` of the shoe's stream: pack 0 is the shoe (floats 0–311). A round that needed every card
 * of the shoe would go on with pack 1 (floats 312–623), shuffled the same way, and so on.
 */
export const shoePack = (input: FairnessInput, pack: number): Card[] => shuffleShoe(floatStream(input, pack * SHOE_CARDS));

/** The shoe in dealing order, from the revealed server seed and the seated players' client seeds. */
export const deriveShoe = (serverSeed: string, seeds: readonly SeatSeed[]): Card[] => shoePack(shoeStreamInput(serverSeed, seeds), 0);
