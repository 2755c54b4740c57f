import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * An independent verifier, written from docs/fairness.md alone: it imports nothing of the project, only
 * node:crypto, and reads the document's text for its tables. It re-derives every worked example of the
 * document (floats, and the cards, tiles, dice, numbers and payouts each game's section describes), which
 * shows the document is enough to verify a round without the project's code.
 */
const DOC = readFileSync(new URL("../../docs/fairness.md", import.meta.url), "utf8");
const blocks = [...DOC.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!) as Record<string, any>);
const examples = blocks.filter((b) => typeof b.example === "string" && b.example !== "stream");
const tableBlock = (name: string) => blocks.find((b) => b.table === name)!;

// ---------------------------------------------------------------------------------------------------
// Sections 1–3: commitment, stream, shared procedures

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const block = (serverSeed: string, clientSeed: string, nonce: number, r: number) =>
  createHmac("sha256", Buffer.from(serverSeed, "utf8")).update(`${clientSeed}:${nonce}:${r}`, "utf8").digest();

/** The stream of one nonce: float c is bytes 4·(c mod 8)… of block floor(c / 8), big-endian / 2³². */
function stream(serverSeed: string, clientSeed: string, nonce: number) {
  let cursor = 0;
  return {
    next(): number {
      const bytes = block(serverSeed, clientSeed, nonce, Math.floor(cursor / 8));
      const value = bytes.readUInt32BE((cursor % 8) * 4) / 2 ** 32;
      cursor += 1;
      return value;
    },
    get cursor() {
      return cursor;
    },
  };
}
type Stream = ReturnType<typeof stream>;

const index = (s: Stream, n: number) => Math.floor(s.next() * n);
const draw52 = (s: Stream) => BigInt(Math.floor(s.next() * 2 ** 26)) * 2n ** 26n + BigInt(Math.floor(s.next() * 2 ** 26));
function pickAndRemove<T>(s: Stream, list: readonly T[], k: number): T[] {
  const left = [...list];
  return Array.from({ length: k }, () => left.splice(index(s, left.length), 1)[0]!);
}
/** A shoe of `decks` decks: the cards left in code order, each code as often as it is left. */
function shoe(decks: number) {
  const copies = new Array<number>(52).fill(decks);
  let left = 52 * decks;
  return (s: Stream): number => {
    let i = index(s, left);
    for (let code = 0; code < 52; code++) {
      if (i < copies[code]!) {
        copies[code]! -= 1;
        left -= 1;
        return code;
      }
      i -= copies[code]!;
    }
    throw new Error("beyond the shoe");
  };
}
const rank = (code: number) => Math.floor(code / 4) + 2;
const die = (s: Stream) => index(s, 6) + 1;
const big = (n: number) => BigInt(n);
const floorRatio = (amount: number, num: bigint | number, den: bigint | number) => Number((big(amount) * BigInt(num)) / BigInt(den));

/**
 * Section 4: the exact payout amount × num / den made whole by the example's rounding rule. Rule 2 writes
 * it q + r/d in lowest terms and, when r > 0, draws v uniform below d from the next floats (words of 32
 * bits, by rejection) and pays q + 1 when v < r. No rule stated: rule 1, rounded down.
 */
function pay(e: Record<string, any>, s: Stream, amount: number, num: bigint | number, den: bigint | number): number {
  if (e.rounding !== 2) return floorRatio(amount, num, den);
  let n = big(amount) * BigInt(num);
  let d = BigInt(den);
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
  const g = gcd(n, d);
  [n, d] = [n / g, d / g];
  const [q, r] = [n / d, n % d];
  if (r === 0n) return Number(q);
  let words = 1;
  while (2n ** BigInt(32 * words) < d) words += 1;
  const span = 2n ** BigInt(32 * words);
  const limit = span - (span % d);
  for (;;) {
    let k = 0n;
    for (let i = 0; i < words; i++) k = k * 2n ** 32n + BigInt(s.next() * 2 ** 32);
    if (k < limit) return Number(q) + (k % d < r ? 1 : 0);
  }
}

/** The comma-separated numbers after `label` in the document's text. */
function numbersAfter(label: string): number[] {
  const start = DOC.indexOf(label);
  if (start < 0) throw new Error(`the document no longer says "${label}"`);
  return DOC.slice(start + label.length)
    .split(/;|\n\n| coins/)[0]!
    .split(",")
    .map((x) => Number(x.trim()));
}

// ---------------------------------------------------------------------------------------------------
// Section 6, game by game: what each example's floats must make. Each returns the floats drawn per step
// (to compare with the document's split), the outcome fields and the total payout.

interface Derived {
  /** the floats each step drew (the bet, then each action) */
  steps?: number[][];
  /** all floats the round drew, in order, where the split into steps is not re-derived */
  floats?: number[];
  outcome: Record<string, unknown>;
  /** the round's payout, where this verifier re-derives it (not for the hand-ranking games and craps) */
  payout?: number;
}

/** Runs `steps` (the bet, then one function per action) on the example's stream, recording the floats. */
function run(e: Record<string, any>, steps: ((s: Stream) => void)[]): number[][] {
  const s = stream(e.serverSeed, e.clientSeed, e.nonce);
  const drawn: number[][] = [];
  let seen: number[] = [];
  const recording: Stream = {
    next: () => {
      const f = s.next();
      seen.push(f);
      return f;
    },
    get cursor() {
      return s.cursor;
    },
  };
  for (const step of steps) {
    seen = [];
    step(recording);
    drawn.push(seen);
  }
  return drawn;
}

const derive: Record<string, (e: Record<string, any>) => Derived> = {
  dice(e) {
    let roll = 0;
    let payout = 0;
    const t = Math.round(e.params.target * 100);
    const under = e.params.direction === "under";
    const chance = under ? t : 9999 - t;
    const wins = () => (under ? roll < t : roll > t);
    const steps = run(e, [
      (s) => {
        roll = index(s, 10_000);
        if (wins()) payout = pay(e, s, e.amount, 9900, chance);
      },
    ]);
    return { steps, outcome: { roll: roll / 100, win: wins() }, payout };
  },

  "coin-flip"(e) {
    let side = "";
    let payout = 0;
    const steps = run(e, [
      (s) => {
        side = s.next() < 0.5 ? "tails" : "heads";
        if (side === e.params.side) payout = pay(e, s, e.amount, 198, 100);
      },
    ]);
    return { steps, outcome: { outcome: side, win: side === e.params.side }, payout };
  },

  limbo(e) {
    let r = 0n;
    const steps = run(e, [(s) => (r = draw52(s))]);
    const result = (99n * 2n ** 52n) / (2n ** 52n - r);
    const shown = result < 100n ? 100n : result;
    const t = BigInt(Math.round(e.params.target * 100));
    const win = shown >= t;
    return { steps, outcome: { result: Number(shown) / 100, win }, payout: win ? floorRatio(e.amount, t, 100) : 0 };
  },

  crash(e) {
    let r = 0n;
    const steps = run(e, [(s) => (r = draw52(s))]);
    const raw = (99n * 2n ** 52n) / (2n ** 52n - r);
    const point = raw < 100n ? 100n : raw;
    const x = BigInt(Math.round(e.params.cashOutAt * 100));
    const win = point >= x;
    return { steps, outcome: { crashPoint: Number(point) / 100, win }, payout: win ? floorRatio(e.amount, x, 100) : 0 };
  },

  roulette(e) {
    let pocket = 0;
    const steps = run(e, [(s) => (pocket = index(s, 37))]);
    const red = numbersAfter("Red: ");
    const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
    const covers = (bet: any): number[] => {
      switch (bet.type) {
        case "red":
          return red;
        case "black":
          return range(1, 36).filter((n) => !red.includes(n));
        case "odd":
          return range(1, 36).filter((n) => n % 2 === 1);
        case "even":
          return range(1, 36).filter((n) => n % 2 === 0);
        case "low":
          return range(1, 18);
        case "high":
          return range(19, 36);
        case "dozen":
          return range(12 * bet.value - 11, 12 * bet.value);
        case "column":
          return range(1, 36).filter((n) => (n - bet.value) % 3 === 0);
        default:
          return bet.numbers;
      }
    };
    const payout = e.params.bets.reduce((sum: number, bet: any) => {
      const c = covers(bet);
      return sum + (c.includes(pocket) ? floorRatio(bet.amount, 36, c.length) : 0);
    }, 0);
    return { steps, outcome: { pocket, color: pocket === 0 ? "green" : red.includes(pocket) ? "red" : "black" }, payout };
  },

  "sic-bo"(e) {
    let dice: number[] = [];
    const steps = run(e, [(s) => (dice = [die(s), die(s), die(s)])]);
    const total = dice[0]! + dice[1]! + dice[2]!;
    const triple = dice[0] === dice[1] && dice[1] === dice[2];
    const count = (v: number) => dice.filter((d) => d === v).length;
    const totals: Record<number, number> = {
      4: 60,
      17: 60,
      5: 30,
      16: 30,
      6: 18,
      15: 18,
      7: 12,
      14: 12,
      8: 8,
      13: 8,
      9: 7,
      12: 7,
      10: 6,
      11: 6,
    };
    const odds = (bet: any): number | null => {
      switch (bet.type) {
        case "small":
          return total <= 10 && !triple ? 1 : null;
        case "big":
          return total >= 11 && !triple ? 1 : null;
        case "total":
          return total === bet.value ? totals[bet.value]! : null;
        case "triple":
          return count(bet.value) === 3 ? 180 : null;
        case "anyTriple":
          return triple ? 30 : null;
        case "double":
          return count(bet.value) >= 2 ? 11 : null;
        case "combination":
          return count(bet.numbers[0]) > 0 && count(bet.numbers[1]) > 0 ? 5 : null;
        case "single":
          return count(bet.value) > 0 ? count(bet.value) : null;
      }
      throw new Error(`unknown sic bo bet ${bet.type}`);
    };
    const payout = e.params.bets.reduce((sum: number, bet: any) => {
      const x = odds(bet);
      return sum + (x === null ? 0 : bet.amount * (x + 1));
    }, 0);
    return { steps, outcome: { dice, total }, payout };
  },

  slots(e) {
    const reels: string[][] = tableBlock("slots-reels").reels;
    let stops: number[] = [];
    const steps = run(e, [(s) => (stops = reels.map((reel) => index(s, reel.length)))]);
    const line = stops.map((stop, i) => reels[i]![stop]!);
    const [a, b, c] = line;
    const fruit: Record<string, number> = { orange: 10, plum: 14, bell: 18, melon: 100 };
    let multiplier = 0;
    if (a === "cherry") multiplier = b !== "cherry" ? 2 : c !== "cherry" ? 4 : 8;
    else if (a === "bar") multiplier = b === "bar" && c === "bar" ? 200 : 0;
    else if (fruit[a!] && b === a && (c === a || c === "bar")) multiplier = fruit[a!]!;
    return { steps, outcome: { stops, line, multiplier }, payout: e.amount * multiplier };
  },

  keno(e) {
    let drawn: number[] = [];
    const tiles = Array.from({ length: 40 }, (_, i) => i + 1);
    const steps = run(e, [(s) => (drawn = pickAndRemove(s, tiles, 10))]);
    const hits = e.params.picks.filter((p: number) => drawn.includes(p));
    const multiplier = tableBlock("keno-multipliers")[e.params.risk][e.params.picks.length - 1][hits.length];
    return { steps, outcome: { drawn, hits, multiplier }, payout: floorRatio(e.amount, Math.round(multiplier * 100), 100) };
  },

  mines(e) {
    let mines: number[] = [];
    const m = e.params.mines;
    const tiles = Array.from({ length: 25 }, (_, i) => i);
    const revealed: number[] = [];
    let status = "open";
    let payout = 0;
    const choose = (n: number, k: number) => {
      let c = 1n;
      for (let i = 1; i <= k; i++) c = (c * big(n - k + i)) / big(i);
      return c;
    };
    const cashOut = () => floorRatio(e.amount, 99n * choose(25, revealed.length), 100n * choose(25 - m, revealed.length));
    const actions = e.actions.map((a: any) => () => {
      if (a.type === "cashout") [status, payout] = ["cashed", cashOut()];
      else if (mines.includes(a.tile)) status = "lost";
      else {
        revealed.push(a.tile);
        if (revealed.length === 25 - m) [status, payout] = ["cashed", cashOut()];
      }
    });
    const steps = run(e, [(s) => (mines = pickAndRemove(s, tiles, m)), ...actions]);
    return { steps, outcome: { mines, revealed, status }, payout };
  },

  "hi-lo"(e) {
    const cards: number[] = [];
    const moves: string[] = [];
    let [num, den, correct, status, payout] = [1n, 1n, 0, "open", 0];
    const current = () => rank(cards[cards.length - 1]!);
    const actions = e.actions.map((a: any) => (s: Stream) => {
      if (a.type === "cashout") {
        [status, payout] = ["cashed", floorRatio(e.amount, 99n * num, 100n * den)];
        return;
      }
      const r = current();
      const k = a.type === "higher" ? 15 - r : a.type === "lower" ? r - 1 : 0;
      cards.push(index(s, 52));
      moves.push(a.type);
      if (a.type === "skip") return;
      const next = current();
      if (a.type === "higher" ? next >= r : next <= r) [num, den, correct] = [num * 13n, den * big(k), correct + 1];
      else status = "lost";
    });
    const steps = run(e, [(s) => cards.push(index(s, 52)), ...actions]);
    return { steps, outcome: { cards, moves, status, correct }, payout };
  },

  blackjack(e) {
    // Every card leaves the 6-deck shoe in order, one float each: the outcome's `dealt` list must be the
    // shoe's sequence; the dealer holds the 2nd and 4th cards and draws last.
    const deal = shoe(6);
    const s = stream(e.serverSeed, e.clientSeed, e.nonce);
    const count = e.outcome.dealt.length;
    const floats: number[] = [];
    const dealt = Array.from({ length: count }, () => {
      const card = deal({ next: () => (floats.push(s.next()), floats[floats.length - 1]!), cursor: 0 });
      return card;
    });
    const draws = e.outcome.dealer.length - 2;
    return { floats, outcome: { dealt, dealer: [dealt[1], dealt[3], ...dealt.slice(count - draws)] } };
  },

  baccarat(e) {
    const deal = shoe(8);
    const points = (code: number) => (rank(code) === 14 ? 1 : rank(code) >= 10 ? 0 : rank(code));
    const total = (hand: number[]) => hand.reduce((t, c) => t + points(c), 0) % 10;
    const player: number[] = [];
    const banker: number[] = [];
    const steps = run(e, [
      (s) => {
        player.push(deal(s));
        banker.push(deal(s));
        player.push(deal(s));
        banker.push(deal(s));
        const [p, b] = [total(player), total(banker)];
        if (p >= 8 || b >= 8) return;
        let third: number | null = null;
        if (p <= 5) {
          player.push(deal(s));
          third = points(player[2]!);
        }
        const draws =
          third === null
            ? b <= 5
            : b <= 2 ||
              (b === 3 && third !== 8) ||
              (b === 4 && third >= 2 && third <= 7) ||
              (b === 5 && third >= 4 && third <= 7) ||
              (b === 6 && third >= 6);
        if (draws) banker.push(deal(s));
      },
    ]);
    const [p, b] = [total(player), total(banker)];
    const winner = p === b ? "tie" : p > b ? "player" : "banker";
    const returns: Record<string, [number, number]> = { player: [2, 1], banker: [195, 100], tie: [9, 1] };
    const payout = Object.entries(e.params.bets as Record<string, number>).reduce(
      (sum, [side, amount]) => sum + (side === winner ? floorRatio(amount, ...returns[side]!) : winner === "tie" ? amount : 0),
      0,
    );
    return { steps, outcome: { player, banker, playerTotal: p, bankerTotal: b, winner }, payout };
  },

  poker(e) {
    const deal = shoe(1);
    let cards: number[] = [];
    const steps = run(e, [(s) => (cards = Array.from({ length: 10 }, () => deal(s))), () => undefined]);
    return { steps, outcome: { player: cards.slice(0, 5), dealer: cards.slice(5) } };
  },

  "three-card-poker"(e) {
    const deal = shoe(1);
    let cards: number[] = [];
    const steps = run(e, [(s) => (cards = Array.from({ length: 6 }, () => deal(s))), () => undefined]);
    return { steps, outcome: { player: cards.slice(0, 3), dealer: cards.slice(3) } };
  },

  "video-poker"(e) {
    const deck = Array.from({ length: 52 }, (_, i) => i);
    let hand: number[] = [];
    let replacements: number[] = [];
    const hold: boolean[] = e.actions[0].hold;
    const steps = run(e, [
      (s) => (hand = pickAndRemove(s, deck, 5)),
      (s) =>
        (replacements = pickAndRemove(
          s,
          deck.filter((c) => !hand.includes(c)),
          5,
        )),
    ]);
    let k = 0;
    const final = hand.map((card, i) => (hold[i] ? card : replacements[k++]!));
    return { steps, outcome: { hand, held: hold, replacements, final } };
  },

  craps(e) {
    const rolls: number[][] = [];
    const steps = run(e, [
      (s) => rolls.push([die(s), die(s)]),
      ...e.actions.map((a: any) => (s: Stream) => {
        if (a.type === "roll") rolls.push([die(s), die(s)]);
      }),
    ]);
    return { steps, outcome: { rolls } };
  },

  "daily-spin"(e) {
    const prizes = numbersAfter("Twelve equal segments, in order: ");
    let segment = 0;
    const steps = run(e, [(s) => (segment = index(s, prizes.length))]);
    return { steps, outcome: { segment, prize: prizes[segment] }, payout: prizes[segment]! };
  },
};

describe("an independent verifier written from docs/fairness.md alone", () => {
  it("reproduces the stream's test vector", () => {
    const v = blocks.find((b) => b.example === "stream")!;
    expect(sha256(v.serverSeed)).toBe(v.serverSeedHash);
    expect([0, 1].map((r) => block(v.serverSeed, v.clientSeed, v.nonce, r).toString("hex"))).toEqual(v.blocks);
    const s = stream(v.serverSeed, v.clientSeed, v.nonce);
    expect(v.floats.map(() => s.next())).toEqual(v.floats);
  });

  it.each(examples.map((e) => [`${e.example} (nonce ${e.nonce})`, e] as const))("re-derives %s", (_, e) => {
    expect(sha256(e.serverSeed)).toBe(e.serverSeedHash);
    const game = derive[e.example];
    expect(game, `no independent derivation for ${e.example}`).toBeDefined();
    const { steps, floats, outcome, payout } = game!(e);
    if (steps) expect(steps).toEqual(e.floats);
    else expect(floats).toEqual(e.floats.flat());
    expect(e.outcome).toMatchObject(outcome);
    if (payout !== undefined) expect(payout).toBe(e.totalPayout);
  });
});
