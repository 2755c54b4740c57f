import { bankerDraws, isNatural, playerDraws, winnerOf, type BaccaratSide } from "./engine";

export interface CoupOdds {
  /** ways for each winner, over all ordered 6-card sequences of the shoe */
  ways: Record<BaccaratSide, bigint>;
  /** all ordered 6-card sequences: N(N−1)…(N−5) */
  total: bigint;
}

const memo = new Map<number, CoupOdds>();

/**
 * Exact odds of one coup from a full shoe of `decks` decks. Only the ten point values matter, so the
 * enumeration runs over value classes (value 0 has 16 cards a deck, 1–9 have 4) and weights every
 * sequence by its number of card orders. A coup that uses fewer than six cards stands for every way of
 * completing it to six, so all sequences share the denominator N(N−1)…(N−5).
 */
export function coupOdds(decks: number): CoupOdds {
  const cached = memo.get(decks);
  if (cached) return cached;
  const counts = Array.from({ length: 10 }, (_, v) => BigInt(v === 0 ? 16 * decks : 4 * decks));
  let left = BigInt(52 * decks);
  const ways: Record<BaccaratSide, bigint> = { player: 0n, banker: 0n, tie: 0n };
  const n = left;
  const total = n * (n - 1n) * (n - 2n) * (n - 3n) * (n - 4n) * (n - 5n);

  // Takes a card of value v out of the shoe and returns how many cards of that value there were.
  const take = (v: number): bigint => {
    const c = counts[v]!;
    counts[v] = c - 1n;
    left -= 1n;
    return c;
  };
  const put = (v: number) => {
    counts[v] = counts[v]! + 1n;
    left += 1n;
  };
  // Remaining orders of the unused cards: (left)(left−1)… for `unused` cards.
  const fill = (unused: number): bigint => {
    let f = 1n;
    for (let i = 0n; i < BigInt(unused); i++) f *= left - i;
    return f;
  };
  const record = (p: number, b: number, weight: bigint, used: number) => {
    ways[winnerOf(p, b)] += weight * fill(6 - used);
  };

  for (let p1 = 0; p1 < 10; p1++) {
    const w1 = take(p1);
    for (let b1 = 0; b1 < 10; b1++) {
      if (counts[b1] === 0n) continue;
      const w2 = w1 * take(b1);
      for (let p2 = 0; p2 < 10; p2++) {
        if (counts[p2] === 0n) continue;
        const w3 = w2 * take(p2);
        for (let b2 = 0; b2 < 10; b2++) {
          if (counts[b2] === 0n) continue;
          const w4 = w3 * take(b2);
          const p = (p1 + p2) % 10;
          const b = (b1 + b2) % 10;
          if (isNatural(p) || isNatural(b)) record(p, b, w4, 4);
          else if (!playerDraws(p)) {
            if (!bankerDraws(b, null)) record(p, b, w4, 4);
            else
              for (let b3 = 0; b3 < 10; b3++) {
                if (counts[b3] === 0n) continue;
                const w5 = w4 * take(b3);
                record(p, (b + b3) % 10, w5, 5);
                put(b3);
              }
          } else
            for (let p3 = 0; p3 < 10; p3++) {
              if (counts[p3] === 0n) continue;
              const w5 = w4 * take(p3);
              const pf = (p + p3) % 10;
              if (!bankerDraws(b, p3)) record(pf, b, w5, 5);
              else
                for (let b3 = 0; b3 < 10; b3++) {
                  if (counts[b3] === 0n) continue;
                  const w6 = w5 * take(b3);
                  record(pf, (b + b3) % 10, w6, 6);
                  put(b3);
                }
              put(p3);
            }
          put(b2);
        }
        put(p2);
      }
      put(b1);
    }
    put(p1);
  }
  const odds = { ways, total };
  memo.set(decks, odds);
  return odds;
}
