import { z } from "zod";
import {
  act,
  dealerTurn,
  deal,
  newShoe,
  nextRound,
  shoeFinished,
  shoeRound,
  type RecordedShoeRound,
  type ShoeRound,
  type TableSeat,
  type TableState,
} from "../games/blackjack-table";
import type { Card } from "../games/cards";
import { GameRuleError } from "../games/engine";
import { describeZodError } from "../validation";
import { tableClientSeed, type SeatSeed } from "../games/shoe";
import { sha256Hex } from "../fairness/stream";
import type { CommitmentCheck } from "./verify";
import { LEGACY_ROUNDING, isRoundingRule, type RoundingRule } from "../fairness/rounding";

/**
 * The shared table's verifier: from a shoe's revealed server seed, the client seeds of the players
 * seated at its first round and the record of its rounds (bets and actions in the order they were
 * applied, a timed-out turn recorded as the default action it got), re-derives the shoe and replays
 * every round with the same engine the table runs.
 */

export interface VerifyShoeRequest {
  serverSeed: string;
  /** the commitment shown before the shoe's first round, checked when given */
  serverSeedHash?: string;
  seats: readonly SeatSeed[];
  rounds: readonly ShoeRound[];
  /** the shoe's rounding rule (section 7): a record that states none is rule 1 */
  rounding?: RoundingRule;
}

export interface VerifiedSeat {
  seat: number;
  bet: number;
  hands: { cards: Card[]; stake: number; result?: string; payout?: number }[];
  insurance: TableSeat["insurance"];
  staked: number;
  payout: number;
}

export interface VerifiedShoeRound {
  round: number;
  /** shoe indexes of the round's cards: [first, end) */
  cards: [number, number];
  dealer: Card[];
  dealerBlackjack: boolean;
  seats: VerifiedSeat[];
}

export interface VerifiedShoe {
  commitment: CommitmentCheck;
  /** SHA-256 of the seat lines: the client seed of the shoe's stream */
  tableClientSeed: string;
  /** the whole shoe in dealing order */
  shoe: Card[];
  rounds: VerifiedShoeRound[];
  /** the last round settled with the cut card out: the record covers the whole shoe */
  complete: boolean;
}

/** Replays one recorded round on the table state: deal, the actions in order, the dealer. */
function replayRound(state: TableState, round: ShoeRound, index: number): TableState {
  let s = deal(state, round.bets);
  for (const { seat, action } of round.actions) s = act(s, seat, action).state;
  if (s.phase === "dealer") s = dealerTurn(s);
  if (s.phase !== "settled")
    throw new GameRuleError("round_incomplete", `Round ${index + 1} has seats still to act after its recorded actions`);
  return s;
}

export function verifyShoe(request: VerifyShoeRequest): VerifiedShoe {
  const rounds = z.array(shoeRound).safeParse(request.rounds);
  if (!rounds.success) throw new GameRuleError("invalid_rounds", describeZodError(rounds.error));
  const serverSeedHash = sha256Hex(request.serverSeed);
  const expected = request.serverSeedHash?.toLowerCase() ?? null;
  const rounding = request.rounding ?? LEGACY_ROUNDING;
  if (!isRoundingRule(rounding)) throw new GameRuleError("invalid_rounding", "rounding must be 1 or 2");
  let state = newShoe(request.serverSeed, request.seats, rounding);
  const verified: VerifiedShoeRound[] = [];
  rounds.data.forEach((round, i) => {
    if (i > 0) state = nextRound(state);
    state = replayRound(state, round, i);
    verified.push({
      round: state.round,
      cards: [state.firstCard, state.shoe.next],
      dealer: [...state.dealer],
      dealerBlackjack: state.dealerBlackjack,
      seats: state.seats.map((s) => ({
        seat: s.seat,
        bet: s.bet,
        hands: s.hands.map((h) => ({ cards: [...h.cards], stake: h.stake, result: h.result, payout: h.payout })),
        insurance: s.insurance,
        staked: s.staked,
        payout: s.payout ?? 0,
      })),
    });
  });
  return {
    commitment: { serverSeedHash, expected, matches: expected === null ? null : expected === serverSeedHash },
    tableClientSeed: tableClientSeed(request.seats),
    shoe: [...state.shoe.cards],
    rounds: verified,
    complete: shoeFinished(state),
  };
}

/** One round of a verified shoe against what the server recorded of it. */
export interface ShoeRoundCheck {
  round: number;
  /** the dealer's cards as dealt again equal the recorded ones (null: not recorded) */
  dealer: boolean | null;
  /** each seat dealt again: its hands' cards, stakes and payout equal the recorded ones */
  seats: { seat: number; matches: boolean; problem: string | null }[];
  /** null when the record holds nothing for the round */
  matches: boolean | null;
}

const sameCards = (a: readonly Card[], b: readonly Card[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/**
 * Compares each round dealt again by verifyShoe with the record of its settlement, round by round: the
 * dealer's cards, and for every seat its hands' cards, what it staked and what it was paid. A seat the
 * record has and the replay does not (or the other way round) does not match.
 */
export function checkShoeRecord(v: VerifiedShoe, recorded: readonly RecordedShoeRound[]): ShoeRoundCheck[] {
  return v.rounds.map((r, i) => {
    const rec = recorded[i];
    if (!rec)
      return {
        round: r.round,
        dealer: null,
        seats: r.seats.map((s) => ({ seat: s.seat, matches: false, problem: "not recorded" })),
        matches: null,
      };
    const dealer = rec.dealer === null ? null : sameCards(rec.dealer, r.dealer);
    const seats = r.seats.map((s) => {
      const got = rec.seats.find((x) => x.seat === s.seat);
      const problem = !got
        ? "not recorded"
        : got.hands !== null && (got.hands.length !== s.hands.length || got.hands.some((h, k) => !sameCards(h, s.hands[k]!.cards)))
          ? "other cards recorded"
          : got.staked !== s.staked
            ? `recorded staked ${got.staked}`
            : got.payout !== s.payout
              ? `recorded paid ${got.payout}`
              : null;
      return { seat: s.seat, matches: problem === null, problem };
    });
    const extra = rec.seats.filter((x) => !r.seats.some((s) => s.seat === x.seat));
    for (const x of extra) seats.push({ seat: x.seat, matches: false, problem: "recorded, but not dealt in this round" });
    return { round: r.round, dealer, seats, matches: dealer !== false && seats.every((s) => s.matches) };
  });
}
