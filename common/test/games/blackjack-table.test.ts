import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/fairness/stream";
import { CUT_CARD, SHOE_CARDS, shoePack } from "../../src/games/shoe";
import { cardCode, type Card } from "../../src/games/cards";
import { type BlackjackAction } from "../../src/games/blackjack/engine";
import {
  act,
  cutCardOut,
  deal,
  dealerTurn,
  defaultAction,
  newShoe,
  nextRound,
  seatToAct,
  shoeFinished,
  tableView,
  timeOut,
  type TableState,
} from "../../src/games/blackjack-table";
import { ruleError } from "../helpers";
import { basic, bets, logAct, playRound, SEEDS, soloReplay, type SeatLog } from "./blackjack.cases";

const SERVER_SEED = "7bfae0f300dcf6538825629299477bd1f680fc99ad50cc0a6fc9522d913db031";
const J = 11;
const Q = 12;
const K = 13;
const A = 14;

/** A card of the given rank; the suit cycles so repeated ranks are distinct codes. */
let suit = 0;
const c = (rank: number): Card => cardCode(rank, suit++ % 4);

/** A table whose shoe starts with exactly these cards (the rest of the real shoe behind them). */
function rigged(ranks: readonly number[]): TableState {
  const state = newShoe(SERVER_SEED, SEEDS);
  state.shoe.cards = [...ranks.map(c), ...state.shoe.cards.slice(ranks.length)];
  return state;
}

describe("blackjack table: the deal and turn order", () => {
  it("deals one card to each seat in seat order, the up card, a second round, the hole card; seats act in seat order", () => {
    // seats 1, 3, 5: 10 9 8 | up 7 | 6 5 4 | hole 10, then draws
    let s = deal(rigged([10, 9, 8, 7, 6, 5, 4, 10, 2, 3, 4, 9]), bets([5, 10], [1, 10], [3, 10]));
    expect(s.seats.map((x) => x.seat)).toEqual([1, 3, 5]);
    expect(s.seats.map((x) => x.hands[0]!.cards.map((card) => Math.floor(card / 4) + 2))).toEqual([
      [10, 6],
      [9, 5],
      [8, 4],
    ]);
    expect(s.phase).toBe("turns");
    expect(seatToAct(s)).toBe(1);
    expect(ruleError(() => act(s, 3, { type: "hit" })).code).toBe("not_your_turn");
    expect(ruleError(() => act(s, 2, { type: "hit" })).code).toBe("not_your_turn");
    s = act(s, 1, { type: "stand" }).state;
    expect(seatToAct(s)).toBe(3);
    s = act(s, 3, { type: "hit" }).state; // 9 5 2 = 16: still seat 3's turn
    expect(seatToAct(s)).toBe(3);
    s = act(s, 3, { type: "stand" }).state;
    expect(seatToAct(s)).toBe(5);
    s = act(s, 5, { type: "double" }).state; // 8 4 3 = 15, doubled: the hand is over
    expect(s.phase).toBe("dealer");
    expect(seatToAct(s)).toBeNull();
    expect(ruleError(() => act(s, 5, { type: "hit" })).code).toBe("no_turn");
    s = dealerTurn(s); // 7 + 10 = 17 stands
    expect(s.dealer).toHaveLength(2);
    expect(s.seats.map((x) => x.payout)).toEqual([0, 0, 0]); // 16, 16 and 15 lose to 17
    expect(s.seats.map((x) => x.staked)).toEqual([10, 10, 20]);
  });

  it("refuses bad bets and acting out of phase, and leaves its input untouched", () => {
    const s = rigged([]);
    expect(ruleError(() => deal(s, [])).code).toBe("invalid_bets");
    expect(ruleError(() => deal(s, bets([8, 10]))).code).toBe("invalid_bets");
    expect(ruleError(() => deal(s, bets([1, 0]))).code).toBe("invalid_bets");
    expect(ruleError(() => deal(s, bets([1, 10], [1, 20]))).code).toBe("invalid_bets");
    expect(ruleError(() => dealerTurn(s)).code).toBe("not_dealer_turn");
    expect(ruleError(() => nextRound(s)).code).toBe("round_open");
    const before = JSON.stringify(s);
    const dealt = deal(s, bets([1, 10]));
    expect(JSON.stringify(s)).toBe(before);
    expect(ruleError(() => deal(dealt, bets([1, 10]))).code).toBe("not_betting");
    expect(ruleError(() => act(dealt, 1, { type: "fold" })).code).toBe("invalid_action");
  });

  it("skips a seat with a blackjack and pays it 3:2 at settlement", () => {
    // seats 1, 3: A 9 | up 9 | K 9 | hole 8
    let s = deal(rigged([A, 9, 9, K, 9, 8]), bets([1, 10], [3, 10]));
    expect(seatToAct(s)).toBe(3);
    expect(s.seats[0]!.hands[0]!.result).toBe("blackjack");
    s = dealerTurn(act(s, 3, { type: "stand" }).state);
    expect(s.seats.map((x) => x.payout)).toEqual([25, 20]); // 3:2, and 18 beats the dealer's 17
  });
});

describe("blackjack table: insurance and the peek", () => {
  it("offers insurance seat by seat under an ace (not to a 1-coin bet), then settles a dealer blackjack", () => {
    // seats 1, 3, 5: 10 A 9 | up A | 10 K 1-coin 7 | hole K
    let s = deal(rigged([10, A, 9, A, 10, K, 7, K]), bets([1, 10], [3, 20], [5, 1]));
    expect(s.phase).toBe("insurance");
    expect(tableView(s).actions).toEqual(["insurance"]);
    expect(ruleError(() => act(s, 1, { type: "hit" })).code).toBe("insurance_pending");
    s = act(s, 1, { type: "insurance", take: true }).state;
    expect(seatToAct(s)).toBe(3);
    const step = act(s, 3, { type: "insurance", take: true });
    expect(step.stake).toBe(10);
    s = step.state; // seat 5's bet of 1 has no insurance: the dealer peeks now
    expect(s.phase).toBe("settled");
    expect(s.dealerBlackjack).toBe(true);
    // seat 1: 20 loses 10, insurance 5 pays 15; seat 3: blackjack pushes 20, insurance 10 pays 30; seat 5 loses
    expect(s.seats.map((x) => [x.staked, x.payout])).toEqual([
      [15, 15],
      [30, 50],
      [1, 0],
    ]);
    expect(tableView(s).dealer).toEqual(s.dealer);
  });

  it("without a dealer blackjack, insurance is lost and play starts at the first seat", () => {
    let s = deal(rigged([10, 9, A, 10, 7, 5]), bets([2, 10], [4, 10]));
    s = act(s, 2, { type: "insurance", take: false }).state;
    s = act(s, 4, { type: "insurance", take: true }).state;
    expect(s.phase).toBe("turns");
    expect(seatToAct(s)).toBe(2);
    expect(ruleError(() => act(s, 2, { type: "insurance", take: true })).code).toBe("no_insurance");
  });
});

describe("blackjack table: a player who does not act", () => {
  it("is stood for, declines insurance, never stakes a coin", () => {
    let s = deal(rigged([10, 9, A, 10, 6, 5, 9]), bets([1, 10], [2, 10]));
    expect(defaultAction(s)).toEqual({ seat: 1, action: { type: "insurance", take: false } });
    let step = timeOut(s);
    expect(step.stake).toBe(0);
    s = act(step.state, 2, { type: "insurance", take: false }).state;
    expect(defaultAction(s)).toEqual({ seat: 1, action: { type: "stand" } });
    step = timeOut(s);
    expect(step).toMatchObject({ seat: 1, stake: 0 });
    expect(step.state.seats[0]!.hands[0]).toMatchObject({ finished: true, cards: s.seats[0]!.hands[0]!.cards });
    expect(seatToAct(step.state)).toBe(2);
    s = dealerTurn(timeOut(step.state).state);
    expect(defaultAction(s)).toBeNull();
    expect(ruleError(() => timeOut(s)).code).toBe("no_turn");
  });

  it("stands every hand of a seat that split and then stopped acting", () => {
    let s = deal(rigged([8, 9, 8, 10, 5, 10]), bets([1, 10]));
    s = act(s, 1, { type: "split" }).state; // 8 5 | 8 …
    s = timeOut(s).state; // stands 8 5, deals 10 to the second hand
    expect(seatToAct(s)).toBe(1);
    s = timeOut(s).state;
    expect(s.phase).toBe("dealer");
    expect(s.seats[0]!.hands.map((h) => h.cards.length)).toEqual([2, 2]);
    expect(s.seats[0]!.staked).toBe(20);
  });
});

describe("blackjack table: what clients see", () => {
  /** The same public table with every secret changed: another seed, another hole card, another rest of the shoe. */
  function otherSecrets(state: TableState): TableState {
    const other = JSON.parse(JSON.stringify(state)) as TableState;
    const dealt = other.shoe.next;
    other.shoe.input = { ...other.shoe.input, serverSeed: sha256Hex("another seed") };
    other.shoe.cards = [...other.shoe.cards.slice(0, dealt), ...other.shoe.cards.slice(dealt).reverse()];
    other.dealer[1] = (other.dealer[1]! + 17) % 52;
    return other;
  }

  it("never shows the hole card or a card still in the shoe before the dealer's turn", () => {
    let checked = 0;
    for (let shoe = 0; shoe < 8; shoe++) {
      let s = newShoe(sha256Hex(`view ${shoe}`), SEEDS);
      s = deal(s, bets([1, 10], [3, 10], [5, 10]));
      for (;;) {
        const view = tableView(s);
        const text = JSON.stringify(view);
        expect(text).not.toContain(s.shoe.input.serverSeed);
        expect(text).not.toContain(s.shoe.input.clientSeed);
        if (s.phase === "insurance" || s.phase === "turns") {
          expect(view.dealer).toEqual([s.dealer[0], null]);
          expect(tableView(otherSecrets(s))).toEqual(view);
          checked += 1;
        }
        const seat = seatToAct(s);
        if (seat === null) break;
        s = act(s, seat, basic(s, seat) as BlackjackAction).state;
      }
      if (s.phase === "dealer") {
        expect(tableView(s).dealer).toEqual(s.dealer);
        s = dealerTurn(s);
      }
      // settled: every card shown was dealt; the rest of the shoe is still not in the view
      const view = tableView(s);
      const shown = [...view.dealer, ...view.seats.flatMap((x) => x.hands.flatMap((h) => h.cards))].length;
      expect(shown).toBe(s.shoe.next - s.firstCard);
      expect(view.shoe).toEqual({ dealt: s.shoe.next, cardsLeft: SHOE_CARDS - s.shoe.next, cutCardOut: false });
    }
    expect(checked).toBeGreaterThan(8);
  });
});

describe("blackjack table: the shoe's end", () => {
  it("plays rounds until the cut card comes out, finishes that round, then refuses another", () => {
    let s = newShoe(SERVER_SEED, SEEDS);
    let rounds = 0;
    while (!shoeFinished(s)) {
      if (s.phase === "settled") s = nextRound(s);
      expect(s.shoe.next).toBeLessThanOrEqual(CUT_CARD);
      s = playRound(s, bets([1, 10], [3, 10], [5, 10]), basic).state;
      rounds += 1;
    }
    expect(cutCardOut(s)).toBe(true);
    expect(s.round).toBe(rounds);
    expect(ruleError(() => nextRound(s)).code).toBe("shoe_finished");
    expect(tableView(s).shoe.cutCardOut).toBe(true);
  });

  it("shuffles the next pack of the same stream in a round that needs more than the whole shoe", () => {
    const s = deal(rigged([10, 9, 2, 10]), bets([1, 10])); // 12 against a 9
    s.shoe.next = SHOE_CARDS - 1;
    s.shoe.cards[SHOE_CARDS - 1] = c(2);
    const once = act(s, 1, { type: "hit" }).state; // the shoe's last card: 14
    expect(once.shoe.cards).toHaveLength(SHOE_CARDS);
    const twice = act(once, 1, { type: "hit" }).state;
    expect(twice.shoe.cards).toHaveLength(2 * SHOE_CARDS);
    expect(twice.shoe.cards.slice(SHOE_CARDS)).toEqual(shoePack(s.shoe.input, 1));
    expect(twice.seats[0]!.hands[0]!.cards[3]).toBe(shoePack(s.shoe.input, 1)[0]);
  });
});

describe("blackjack table: pays exactly what the solo engine pays on the same cards", () => {
  const cases: [string, number[], [number, number][], [number, BlackjackAction][]][] = [
    [
      "a split and doubles",
      [7, 6, 5, 7, 6, 6, 4, 9, 10, 2, 8, 10],
      [
        [1, 10],
        [2, 30],
      ],
      [
        [1, { type: "split" }],
        [1, { type: "double" }],
        [1, { type: "double" }],
        [2, { type: "split" }],
        [2, { type: "stand" }],
        [2, { type: "stand" }],
      ],
    ],
    [
      "split aces",
      [A, 9, 5, A, 9, 10, Q, K, 9, 2],
      [
        [1, 10],
        [3, 10],
      ],
      [
        [1, { type: "split" }],
        [3, { type: "hit" }],
      ],
    ],
    [
      "insurance taken, no dealer blackjack",
      [10, 9, A, 9, 8, 6, 5],
      [
        [1, 10],
        [2, 10],
      ],
      [
        [1, { type: "insurance", take: true }],
        [2, { type: "insurance", take: true }],
        [1, { type: "stand" }],
        [2, { type: "hit" }],
      ],
    ],
    [
      "insurance against a dealer blackjack",
      [A, 10, A, K, 9, J],
      [
        [1, 10],
        [2, 10],
      ],
      [
        [1, { type: "insurance", take: true }],
        [2, { type: "insurance", take: false }],
      ],
    ],
    [
      "a double on soft 17 and a bust",
      [A, 10, 6, 6, 6, 10, 3, K],
      [
        [1, 40],
        [4, 7],
      ],
      [
        [1, { type: "double" }],
        [4, { type: "hit" }],
      ],
    ],
    [
      "a re-split to four hands",
      [10, 8, 6, 9, 8, 10, 8, 8, 2, 3, 4, 5, 6, 10],
      [
        [7, 10],
        [6, 10],
      ],
      [
        [6, { type: "stand" }],
        [7, { type: "split" }],
        [7, { type: "split" }],
        [7, { type: "split" }],
        [7, { type: "double" }],
        [7, { type: "stand" }],
        [7, { type: "stand" }],
        [7, { type: "stand" }],
      ],
    ],
  ];

  it.each(cases)("%s", (_, ranks, roundBets, actions) => {
    const logs = new Map<number, SeatLog>();
    let s = deal(rigged(ranks), bets(...roundBets));
    for (const [seat, action] of actions) s = logAct(s, logs, seat, action);
    expect(seatToAct(s)).toBeNull();
    if (s.phase === "dealer") s = dealerTurn(s);
    for (const seat of s.seats) {
      const alone = soloReplay(s, seat.seat, logs.get(seat.seat));
      expect(alone.done).toBe(true);
      expect([seat.seat, seat.staked, seat.payout]).toEqual([seat.seat, alone.stake, alone.payout]);
    }
  });
});
