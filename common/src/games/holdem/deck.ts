import { z } from "zod";
import { seatLines, type SeatSeed } from "../shoe";
import { drawWithoutReplacement, floatStream, sha256Hex, type FairnessInput } from "../../fairness/stream";
import { clientSeed } from "../../fairness/client-seed";
import { cardName, FULL_DECK, type Card } from "../cards";
import { HOLDEM_DEFAULTS, HOLDEM_MAX_SEATS } from "./config";
import { holdemAction, replayHand, type HandResult, type HandStart, type HoldemAction } from "./hand-machine";
import { commitmentLine } from "../../fairness/commitment-line";

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

const coins = z.number().int().min(0);
const seatNo = z.number().int().min(1).max(HOLDEM_MAX_SEATS);
const card = z.number().int().min(0).max(51);

/**
 * A hand's record as a file or an answer holds it: dealHoldemHand's input, the blinds standing for the
 * whole config (the times do not change the cards or the chips), and optionally what the table recorded
 * of its outcome, which checkHoldemRecord compares with the hand dealt again.
 */
export const holdemHandFile = z
  .object({
    serverSeed: z.string().min(1),
    serverSeedHash: z.string().optional(),
    seeds: holdemSeatSeeds,
    start: z
      .object({
        handNumber: z.number().int().min(0),
        config: z.object({ smallBlind: coins, bigBlind: coins }).passthrough(),
        button: seatNo,
        smallBlindSeat: seatNo,
        bigBlindSeat: seatNo,
        seats: z.array(
          z.object({
            seat: seatNo,
            playerId: z.string(),
            stack: coins,
            timeBank: coins.default(0),
            connected: z.boolean().default(true),
            postsBigBlind: z.boolean().optional(),
          }),
        ),
      })
      .passthrough(),
    actions: z.array(z.object({ seat: seatNo, action: holdemAction })),
    outcome: z
      .object({
        board: z.array(card),
        hole: z.array(z.object({ seat: seatNo, cards: z.array(card) })).optional(),
        stacks: z.array(z.object({ seat: seatNo, stack: coins })),
      })
      .optional(),
  })
  .passthrough();
export type HoldemHandFile = z.infer<typeof holdemHandFile>;

/** The record of a parsed file as dealHoldemHand takes it (its config completed with the defaults). */
export const recordOfFile = (file: HoldemHandFile): HoldemHandRecord => ({
  ...file,
  start: { ...file.start, config: { ...HOLDEM_DEFAULTS, ...file.start.config } },
});

/** The differences between a hand dealt again and what the table recorded of it (empty: they match). */
export function checkHoldemRecord(dealt: DealtHoldemHand, outcome: NonNullable<HoldemHandFile["outcome"]>): string[] {
  const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const problems: string[] = [];
  if (!same(dealt.result.board, outcome.board)) problems.push("other board recorded");
  for (const h of outcome.hole ?? []) {
    const got = dealt.hole.find((x) => x.seat === h.seat);
    if (!got || !same(got.cards, h.cards)) problems.push(`seat ${h.seat}: other hole cards recorded`);
  }
  for (const s of outcome.stacks) {
    const got = dealt.result.stacks.find((x) => x.seat === s.seat);
    if (!got) problems.push(`seat ${s.seat}: recorded, but not dealt in`);
    else if (got.stack !== s.stack) problems.push(`seat ${s.seat}: recorded stack ${s.stack}, dealt again ${got.stack}`);
  }
  return problems;
}

/** A dealt hand in words: the commitment, the deck's client seed, each seat's cards, the board, the pots. */
export function describeHoldemHand(d: DealtHoldemHand): string[] {
  const cards = (list: readonly Card[]) => list.map(cardName).join(" ");
  const lines = [
    `server seed hash: ${d.commitment.serverSeedHash}`,
    commitmentLine(d.commitment, "the hand", "no server seed hash given"),
    `hand client seed: ${d.clientSeed}`,
    ...d.hole.map((h) => `seat ${h.seat}: ${cards(h.cards)}`),
    `board: ${cards(d.result.board) || "(none dealt)"}`,
  ];
  for (const s of d.result.shown) lines.push(`seat ${s.seat} shows ${s.best.category}: ${cards(s.best.cards)}`);
  if (d.result.mucked.length) lines.push(`mucked: seat ${d.result.mucked.join(", seat ")}`);
  if (d.result.uncalled) lines.push(`uncalled ${d.result.uncalled.amount} back to seat ${d.result.uncalled.seat}`);
  d.result.pots.forEach((p, i) => {
    const to = p.winners.map((w) => `seat ${w.seat} ${w.amount}`).join(", ");
    lines.push(`${i === 0 ? "main pot" : `side pot ${i}`} ${p.amount}: ${to}`);
  });
  lines.push(`stacks: ${d.result.stacks.map((s) => `seat ${s.seat} ${s.stack}`).join(", ")}`);
  return lines;
}
