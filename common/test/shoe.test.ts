import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { deriveShoe, seatSeedText, SHOE_CARDS, shoeStreamInput, shuffleShoe, tableClientSeed, type SeatSeed } from "../src/games/shoe";
import { blockFloats, floatStream, hmacBlock, sha256Hex } from "../src/fairness/stream";
import { checkShoeRecord, verifyShoe } from "../src/verifiers/verify-shoe";
import type { RecordedShoeRound, ShoeRound } from "../src/games/blackjack-table";
import { basicStrategy, seatCanDouble, seatCanSplit, type BlackjackAction } from "../src/games/blackjack/engine";
import {
  act,
  deal,
  dealerTurn,
  defaultAction,
  newShoe,
  nextRound,
  seatToAct,
  shoeFinished,
  type TableState,
} from "../src/games/blackjack-table";
import { dealCards } from "../src/games/cards";
import { GameRuleError } from "../src/games/engine";
import { ruleError } from "./helpers";
import { SEEDS } from "./games/blackjack.cases";

/**
 * The shared table's shoe: its derivation from the committed server seed and the seated players' client
 * seeds, the published worked example (docs/fairness.md), and the verifier replaying a whole shoe.
 */

const DOC = readFileSync(new URL("../../docs/fairness.md", import.meta.url), "utf8");
const example = [...DOC.matchAll(/```json\n([\s\S]*?)\n```/g)]
  .map((m) => JSON.parse(m[1]!) as Record<string, any>)
  .find((b) => b.shoe === "blackjack-table")!;

const SERVER_SEED = "7bfae0f300dcf6538825629299477bd1f680fc99ad50cc0a6fc9522d913db031";
/** The same shoe computed from the document's words alone, with node:crypto: no project code. */
function independentShoe(serverSeed: string, seats: { seat: number; clientSeed: string }[]): number[] {
  const text = [...seats]
    .sort((a, b) => a.seat - b.seat)
    .map((s) => `${s.seat}:${s.clientSeed}`)
    .join("\n");
  const clientSeed = createHash("sha256").update(text).digest("hex");
  const floats: number[] = [];
  for (let block = 0; floats.length < 312; block++) {
    const bytes = createHmac("sha256", serverSeed).update(`${clientSeed}:0:${block}`).digest();
    for (let i = 0; i < 32; i += 4) floats.push(bytes.readUInt32BE(i) / 2 ** 32);
  }
  const left: number[] = [];
  for (let code = 0; code < 52; code++) for (let copy = 0; copy < 6; copy++) left.push(code);
  return floats.slice(0, 312).map((f) => left.splice(Math.floor(f * left.length), 1)[0]!);
}

const differences = (a: readonly number[], b: readonly number[]) => a.filter((x, i) => x !== b[i]).length;

describe("the shared table's shoe", () => {
  it("is the 6 decks, each card six times, in an order fixed by the seeds", () => {
    const shoe = deriveShoe(SERVER_SEED, SEEDS);
    expect(shoe).toHaveLength(SHOE_CARDS);
    const counts = new Array<number>(52).fill(0);
    for (const card of shoe) counts[card]! += 1;
    expect(counts).toEqual(new Array<number>(52).fill(6));
    expect(deriveShoe(SERVER_SEED, SEEDS)).toEqual(shoe);
  });

  it("is what dealing every card of a fresh 6-deck shoe from the table's stream gives (fairness.md section 3)", () => {
    const input = shoeStreamInput(SERVER_SEED, SEEDS);
    expect(deriveShoe(SERVER_SEED, SEEDS)).toEqual(dealCards(floatStream(input), 6, [], SHOE_CARDS));
    expect(input).toEqual({ serverSeed: SERVER_SEED, clientSeed: sha256Hex("1:alice-1\n3:bob-42\n5:carol-9"), nonce: 0 });
  });

  it("is re-derived from the document's words with nothing but node:crypto", () => {
    expect(independentShoe(SERVER_SEED, SEEDS)).toEqual(deriveShoe(SERVER_SEED, SEEDS));
    expect(independentShoe(example.serverSeed, example.seats)).toEqual(deriveShoe(example.serverSeed, example.seats));
  });

  it("orders the seeds by seat, whatever order they are given in; the seat numbers count", () => {
    expect(deriveShoe(SERVER_SEED, [...SEEDS].reverse())).toEqual(deriveShoe(SERVER_SEED, SEEDS));
    const moved = SEEDS.map((s) => (s.seat === 5 ? { ...s, seat: 6 } : s));
    expect(differences(deriveShoe(SERVER_SEED, moved), deriveShoe(SERVER_SEED, SEEDS))).toBeGreaterThan(250);
  });

  it("changes its order when any one seated player's client seed changes, or the server seed, or a player sits down", () => {
    const shoe = deriveShoe(SERVER_SEED, SEEDS);
    for (let i = 0; i < SEEDS.length; i++) {
      const changed = SEEDS.map((s, j) => (j === i ? { ...s, clientSeed: `${s.clientSeed}x` } : s));
      // two independent shuffles of 6 decks agree on about 6 of 312 places
      expect(differences(deriveShoe(SERVER_SEED, changed), shoe), `seat ${SEEDS[i]!.seat}`).toBeGreaterThan(250);
    }
    expect(differences(deriveShoe(sha256Hex("another server seed"), SEEDS), shoe)).toBeGreaterThan(250);
    expect(differences(deriveShoe(SERVER_SEED, [...SEEDS, { seat: 7, clientSeed: "dave" }]), shoe)).toBeGreaterThan(250);
    expect(differences(deriveShoe(SERVER_SEED, SEEDS.slice(0, 2)), shoe)).toBeGreaterThan(250);
  });

  it("refuses seeds it cannot mix: none, a seat twice, a seat off the table, a seed with a space", () => {
    expect(ruleError(() => newShoe(SERVER_SEED, [])).code).toBe("invalid_seeds");
    expect(ruleError(() => newShoe(SERVER_SEED, [SEEDS[0]!, SEEDS[0]!])).code).toBe("invalid_seeds");
    expect(ruleError(() => newShoe(SERVER_SEED, [{ seat: 8, clientSeed: "x" }])).code).toBe("invalid_seeds");
    expect(ruleError(() => newShoe(SERVER_SEED, [{ seat: 1, clientSeed: "a b" }])).code).toBe("invalid_seeds");
    expect(() => seatSeedText([{ seat: 0, clientSeed: "x" }])).toThrow();
  });

  it("shuffles with pick-and-remove over the cards in code order, one float a card", () => {
    let cursor = 0;
    const rng = {
      next: () => ((cursor += 1), 0),
      get cursor() {
        return cursor;
      },
    };
    // a float of 0 always takes the first card left: the canonical order itself
    expect(shuffleShoe(rng).slice(0, 8)).toEqual([0, 0, 0, 0, 0, 0, 1, 1]);
    expect(cursor).toBe(SHOE_CARDS);
  });
});

describe("docs/fairness.md: the shared table's worked example", () => {
  it("gives the seat lines, the table's client seed, its first HMAC block and floats, and the shoe's first cards", () => {
    expect(sha256Hex(example.serverSeed)).toBe(example.serverSeedHash);
    expect(seatSeedText(example.seats)).toBe(example.seatLines.join("\n"));
    expect(tableClientSeed(example.seats)).toBe(example.tableClientSeed);
    const input = shoeStreamInput(example.serverSeed, example.seats);
    expect(Buffer.from(hmacBlock(input, 0)).toString("hex")).toBe(example.block0);
    expect(blockFloats(input, 0)).toEqual(example.floats);
    const shoe = deriveShoe(example.serverSeed, example.seats);
    expect(shoe.slice(0, example.firstCards.length)).toEqual(example.firstCards);
  });

  it("replays its rounds through the verifier to the published outcome", () => {
    const v = verifyShoe({
      serverSeed: example.serverSeed,
      serverSeedHash: example.serverSeedHash,
      seats: example.seats,
      rounds: example.rounds,
    });
    expect(v.commitment.matches).toBe(true);
    expect(v.complete).toBe(false);
    expect(v.rounds).toMatchObject(example.outcome);
  });
});

describe("docs/fairness.md: a natural on an odd stake at the table (rule 2)", () => {
  const rounding = [...DOC.matchAll(/```json\n([\s\S]*?)\n```/g)]
    .map((m) => JSON.parse(m[1]!) as Record<string, any>)
    .find((b) => b.shoeRounding === "blackjack-table")!;
  /** The example's rounds with one seat's bet changed. */
  const withBet = (round: number, seat: number, bet: number): ShoeRound[] =>
    (example.rounds as ShoeRound[]).slice(0, round).map((r, i) => ({
      ...r,
      bets: r.bets.map((b) => (i === round - 1 && b.seat === seat ? { ...b, amount: bet } : b)),
    }));

  it("draws the half coin from the round's own stream (the shoe's seed, nonce = round), as the worked example says", () => {
    expect(rounding.rounding).toBe(2);
    for (const n of rounding.naturals) {
      // float #0 of the round's stream, from the document's words with node:crypto alone
      const block = createHmac("sha256", example.serverSeed).update(`${example.tableClientSeed}:${n.round}:0`).digest();
      const word = block.readUInt32BE(0);
      expect(word / 2 ** 32).toBe(n.float);
      expect(word).toBe(n.K);
      expect(word % 2).toBe(n.v);
      const v = verifyShoe({ serverSeed: example.serverSeed, seats: example.seats, rounds: withBet(n.round, n.seat, n.bet), rounding: 2 });
      const seat = v.rounds[n.round - 1]!.seats.find((s) => s.seat === n.seat)!;
      expect(seat.hands[0]!.result).toBe("blackjack");
      expect(seat.payout).toBe(n.payout);
      expect(seat.payout).toBe(Math.floor((n.bet * 5) / 2) + (n.v === 0 ? 1 : 0));
      // rule 1 (a record that states none) rounds the same natural down
      const legacy = verifyShoe({ serverSeed: example.serverSeed, seats: example.seats, rounds: withBet(n.round, n.seat, n.bet) });
      expect(legacy.rounds[n.round - 1]!.seats.find((s) => s.seat === n.seat)!.payout).toBe(Math.floor((n.bet * 5) / 2));
    }
    expect(rounding.naturals.map((n: any) => n.payout)).toEqual([53, 127]);
  });
});

/** A whole shoe played by three seats: basic strategy, some insurance, some timeouts; recorded as the table would. */
function playShoe(serverSeed: string, seats: SeatSeed[]) {
  let s: TableState = newShoe(serverSeed, seats);
  const rounds: ShoeRound[] = [];
  const settled: TableState[] = [];
  while (!shoeFinished(s)) {
    if (s.phase === "settled") s = nextRound(s);
    const bets = seats.map((x, i) => ({ seat: x.seat, amount: 10 * (i + 1) + s.round }));
    const record: ShoeRound = { bets, actions: [] };
    s = deal(s, bets);
    for (let seat = seatToAct(s); seat !== null; seat = seatToAct(s)) {
      const k = (s.shoe.next + seat) % 5;
      const st = s.seats[s.turn]!;
      let action: BlackjackAction;
      if (k === 0)
        action = defaultAction(s)!.action; // timed out
      else if (s.phase === "insurance") action = { type: "insurance", take: k < 3 };
      else action = { type: basicStrategy(st.hands[st.active]!.cards, s.dealer[0]!, seatCanDouble(st), seatCanSplit(st)) };
      record.actions.push({ seat, action });
      s = act(s, seat, action).state;
    }
    if (s.phase === "dealer") s = dealerTurn(s);
    rounds.push(record);
    settled.push(s);
  }
  return { rounds, settled };
}

describe("verifying a whole shoe", () => {
  const serverSeed = sha256Hex("a shoe to verify");
  const played = playShoe(serverSeed, SEEDS);

  it("re-derives every round of the shoe from the revealed seed and the seated players' client seeds", () => {
    const v = verifyShoe({ serverSeed, serverSeedHash: sha256Hex(serverSeed), seats: SEEDS, rounds: played.rounds });
    expect(v.commitment.matches).toBe(true);
    expect(v.complete).toBe(true);
    expect(v.shoe).toEqual(deriveShoe(serverSeed, SEEDS));
    expect(v.rounds.length).toBe(played.settled.length);
    expect(v.rounds.length).toBeGreaterThan(10);
    v.rounds.forEach((round, i) => {
      const s = played.settled[i]!;
      expect(round.cards).toEqual([s.firstCard, s.shoe.next]);
      expect(round.dealer).toEqual(s.dealer);
      expect(round.seats.map((x) => [x.seat, x.staked, x.payout, x.hands.map((h) => h.cards)])).toEqual(
        s.seats.map((x) => [x.seat, x.staked, x.payout, x.hands.map((h) => h.cards)]),
      );
    });
  });

  it("tells a seed that does not match its commitment, and refuses a record the shoe cannot have produced", () => {
    expect(verifyShoe({ serverSeed, serverSeedHash: sha256Hex("other"), seats: SEEDS, rounds: [] }).commitment.matches).toBe(false);
    // with one client seed changed the same record no longer replays to the same cards
    const tampered = SEEDS.map((s) => (s.seat === 3 ? { ...s, clientSeed: "bob-43" } : s));
    let dealers: number[][] | "refused";
    try {
      dealers = verifyShoe({ serverSeed, seats: tampered, rounds: played.rounds }).rounds.map((r) => r.dealer);
    } catch (e) {
      expect(e).toBeInstanceOf(GameRuleError); // a recorded action the other cards do not allow
      dealers = "refused";
    }
    expect(dealers).not.toEqual(played.settled.map((s) => s.dealer));
    // a round recorded without its actions leaves seats to act: refused
    const i = played.rounds.findIndex((r) => r.actions.length > 0);
    const cut = [...played.rounds.slice(0, i), { bets: played.rounds[i]!.bets, actions: [] }];
    expect(ruleError(() => verifyShoe({ serverSeed, seats: SEEDS, rounds: cut })).code).toBe("round_incomplete");
  });
});

describe("comparing a verified shoe with the server's record of it", () => {
  const serverSeed = sha256Hex("a shoe to compare");
  const played = playShoe(serverSeed, SEEDS);
  const v = verifyShoe({ serverSeed, serverSeedHash: sha256Hex(serverSeed), seats: SEEDS, rounds: played.rounds });
  // The record as the engine settled it (what the table's settlement writes), independent of the verifier.
  const record = (): RecordedShoeRound[] =>
    played.settled.map((s) => ({
      dealer: [...s.dealer],
      seats: s.seats.map((x) => ({ seat: x.seat, hands: x.hands.map((h) => [...h.cards]), staked: x.staked, payout: x.payout ?? 0 })),
    }));

  it("finds every round matching a faithful record", () => {
    const checks = checkShoeRecord(v, record());
    expect(checks).toHaveLength(v.rounds.length);
    expect(checks.every((c) => c.matches === true && c.dealer === true)).toBe(true);
  });

  it("names the round and seat of each difference: a payout, a card, the dealer's cards, a seat too many, a round not recorded", () => {
    const tampered = record();
    tampered[2]!.seats[0]!.payout += 1;
    const hand = tampered[4]!.seats[0]!.hands![0]!;
    hand[0] = (hand[0]! + 1) % 52;
    tampered[6]!.dealer = [...tampered[6]!.dealer!].reverse();
    tampered[7]!.seats.push({ seat: 7, hands: [[0, 1]], staked: 5, payout: 0 });
    const checks = checkShoeRecord(v, tampered.slice(0, -1));
    const wrong = checks.flatMap((c, i) => (c.matches === true ? [] : [i]));
    expect(wrong).toEqual([2, 4, 6, 7, checks.length - 1]);
    expect(checks[2]!.seats[0]).toMatchObject({ matches: false, problem: `recorded paid ${v.rounds[2]!.seats[0]!.payout + 1}` });
    expect(checks[4]!.seats[0]).toMatchObject({ matches: false, problem: "other cards recorded" });
    expect(checks[6]!.dealer).toBe(false);
    expect(checks[7]!.seats.at(-1)).toMatchObject({ seat: 7, matches: false });
    expect(checks.at(-1)!.matches).toBeNull();
  });
});
