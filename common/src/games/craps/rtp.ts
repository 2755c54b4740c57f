import {
  ANY_CRAPS_RETURN,
  ANY_SEVEN_RETURN,
  EVEN_MONEY,
  FIELD_RETURN,
  HARD_RETURN,
  LAY_MULTIPLE,
  LAY_ODDS_RETURN,
  ODDS_MULTIPLE,
  PASS_ODDS_RETURN,
  PLACE_RETURN,
  type PointNumber,
} from "./engine";
import type { RtpRow } from "../../rtp/types";

/** Exact rationals: the closed forms below only need + × ÷ on small fractions. */
class Q {
  readonly n: bigint;
  readonly d: bigint;
  constructor(n: bigint | number, d: bigint | number = 1n) {
    let num = BigInt(n);
    let den = BigInt(d);
    if (den < 0n) [num, den] = [-num, -den];
    const g = gcd(num < 0n ? -num : num, den);
    this.n = num / g;
    this.d = den / g;
  }
  add = (o: Q) => new Q(this.n * o.d + o.n * this.d, this.d * o.d);
  sub = (o: Q) => new Q(this.n * o.d - o.n * this.d, this.d * o.d);
  mul = (o: Q) => new Q(this.n * o.n, this.d * o.d);
  div = (o: Q) => new Q(this.n * o.d, this.d * o.n);
  toNumber = () => Number(this.n) / Number(this.d);
  toString = () => `${this.n}/${this.d}`;
}
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a === 0n ? 1n : a) : gcd(b, a % b));
const q = (n: number, d = 1) => new Q(n, d);
const sum = (xs: Q[]) => xs.reduce((a, b) => a.add(b), q(0));
const ret = ([n, d]: readonly [number, number]) => q(n, d);

/** Ways to throw each total with two dice, out of 36. */
const WAYS: Record<number, number> = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };
const p = (total: number) => q(WAYS[total]!, 36);
const POINT_LIST: PointNumber[] = [4, 5, 6, 8, 9, 10];
/** P(the number comes before a 7) — the only chance a multi-roll bet depends on. */
const before7 = (n: number) => q(WAYS[n]!, WAYS[n]! + 6);
const seven7First = (n: number) => q(6, WAYS[n]! + 6);

const passWin = p(7)
  .add(p(11))
  .add(sum(POINT_LIST.map((n) => p(n).mul(before7(n)))));
const dontWin = p(2)
  .add(p(3))
  .add(sum(POINT_LIST.map((n) => p(n).mul(seven7First(n)))));
const barPush = p(12);
const passRtp = passWin.mul(ret(EVEN_MONEY));
const dontRtp = dontWin.mul(ret(EVEN_MONEY)).add(barPush);

/** Flat bet plus the most odds allowed on every point, per coin wagered in all (odds return exactly 1). */
function withFullOdds(flatRtp: Q, multiple: (n: PointNumber) => number): Q {
  const oddsWagered = sum(POINT_LIST.map((n) => p(n).mul(q(multiple(n)))));
  return flatRtp.add(oddsWagered).div(q(1).add(oddsWagered));
}

const pairs: [string, PointNumber, PointNumber][] = [
  ["4/10", 4, 10],
  ["5/9", 5, 9],
  ["6/8", 6, 8],
];

export function rtpRows(): RtpRow[] {
  const row = (bet: string, value: Q, method: string, edge: number | undefined): RtpRow => ({
    game: "craps",
    bet,
    rtp: value.toNumber(),
    ...(edge === undefined ? {} : { reference: 1 - edge }),
    method: `exact closed form (${value}): ${method}`,
  });
  const chain = "first-step analysis of the point chain: P(point n) × P(n before 7) = ways(n)/(ways(n)+6)";
  const rows: RtpRow[] = [
    row("pass line", passRtp, chain, 0.01414),
    row("come", passRtp, `same decision as the pass line, started on a later roll; ${chain}`, 0.01414),
    row("don't pass (12 pushes)", dontRtp, `${chain}; a come-out 12 pushes`, 0.01364),
    row("don't come (12 pushes)", dontRtp, `same decision as don't pass, started on a later roll; ${chain}`, 0.01364),
  ];
  for (const [label, a, b] of pairs) {
    const oddsA = before7(a).mul(ret(PASS_ODDS_RETURN[a]));
    const oddsB = before7(b).mul(ret(PASS_ODDS_RETURN[b]));
    if (oddsA.sub(oddsB).n !== 0n) throw new Error("odds on paired numbers differ");
    rows.push(
      row(`pass/come odds on ${label}`, oddsA, "P(n before 7) × true-odds return; whole-coin stakes in multiples that pay exactly", 0),
    );
    rows.push(
      row(`don't pass/don't come lay odds on ${label}`, seven7First(a).mul(ret(LAY_ODDS_RETURN[a])), "P(7 before n) × true-odds return", 0),
    );
  }
  rows.push(
    row(
      "pass + 3-4-5× odds (per coin wagered)",
      withFullOdds(passRtp, (n) => ODDS_MULTIPLE[n]),
      "pass line return plus fair odds of 3/4/5× the flat bet, over the expected total wagered",
      0.00374,
    ),
    row(
      "don't pass + 6× lay odds (per coin wagered)",
      withFullOdds(dontRtp, () => LAY_MULTIPLE),
      "don't pass return plus fair lay odds of 6× the flat bet, over the expected total wagered",
      undefined,
    ),
    row(
      "field (2 pays 2:1, 12 pays 3:1)",
      sum(Object.entries(FIELD_RETURN).map(([t, r]) => p(Number(t)).mul(ret(r)))),
      "one roll: Σ P(total) × return over the field numbers",
      0.02778,
    ),
  );
  for (const [label, a] of [pairs[2]!, pairs[1]!, pairs[0]!]) {
    rows.push(
      row(
        `place ${label}`,
        before7(a).mul(ret(PLACE_RETURN[a])),
        "P(n before 7) × return; stakes in multiples of 6 (6/8) or 5 (others) pay exactly",
        { 4: 0.06667, 5: 0.04, 6: 0.01515 }[a as 4 | 5 | 6],
      ),
    );
  }
  for (const [label, n, edge] of [
    ["6/8", 6, 0.09091],
    ["4/10", 4, 0.11111],
  ] as const) {
    // a hardway wins on the one double before a 7 or an easy way of its number
    const pWin = q(1, 1 + 6 + (WAYS[n]! - 1));
    rows.push(row(`hard ${label}`, pWin.mul(ret(HARD_RETURN[n]!)), "P(the double before 7 or the easy way) × return", edge));
  }
  rows.push(
    row("any seven", p(7).mul(ret(ANY_SEVEN_RETURN)), "one roll: P(7) × return", 0.16667),
    row("any craps", p(2).add(p(3)).add(p(12)).mul(ret(ANY_CRAPS_RETURN)), "one roll: P(2, 3 or 12) × return", 0.11111),
  );
  return rows;
}
